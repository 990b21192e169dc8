import { z } from 'zod';
import { FIELD_TYPES } from '../../domain/form-fields';
import { QUALIFICATION_OPERATORS } from '../../domain/qualification';
import { LOGIC_ACTIONS, LOGIC_OPERATORS } from '../../domain/form-logic';
import { zId, zIsoTime } from '../envelope';
import { FORM_STATUSES, FORM_TYPES } from './schemas';

/** Answer schemas of the forms feature: the shapes of presentForm, presentField, presentSubmission, formAnalytics. */

export const zField = z
  .strictObject({
    id: zId,
    type: z.enum(FIELD_TYPES),
    label: z.string(),
    name: z.string(),
    placeholder: z.string().nullable(),
    required: z.boolean(),
    position: z.number().int(),
    options: z
      .array(z.strictObject({ label: z.string(), value: z.string(), points: z.number().optional(), correct: z.boolean().optional() }))
      .optional(),
    min: z.number().nullable().optional(),
    max: z.number().nullable().optional(),
    default_value: z.string().nullable().optional(),
    /** The step (0-based) of a multi-step or quiz form; hidden fields have none. */
    page: z.number().int().optional(),
    /** Conditional logic (domain/form-logic.ts). */
    logic: z.array(
      z.strictObject({
        when: z.strictObject({ field: z.string(), operator: z.enum(LOGIC_OPERATORS), value: z.unknown().optional() }),
        action: z.enum(LOGIC_ACTIONS),
        to: z.number().int().optional(),
      }),
    ),
  })
  .meta({ id: 'FormField' });

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const zCondition = z.strictObject({
  field: z.string(),
  operator: z.enum(QUALIFICATION_OPERATORS),
  value: z.union([scalar, z.array(z.union([z.string(), z.number()]))]).optional(),
});

const zRoutingTarget = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('event_type'), event_type_id: zId, host_user_ids: z.array(zId).optional() }),
    z.strictObject({ type: z.literal('url'), url: z.string() }),
    z.strictObject({ type: z.literal('message'), message: z.string() }),
  ])
  .meta({ id: 'RoutingTarget' });

export const zRoutingSettings = z
  .strictObject({
    rules: z.array(z.strictObject({ match: z.enum(['all', 'any']).optional(), conditions: z.array(zCondition), target: zRoutingTarget })),
    fallback: zRoutingTarget.nullable().optional(),
    unbooked: z.strictObject({ after_hours: z.number(), sequence_id: zId }).nullable().optional(),
  })
  .meta({
    id: 'RoutingSettings',
    example: {
      rules: [
        {
          conditions: [{ field: 'region', operator: 'equals', value: 'EMEA' }],
          target: {
            type: 'event_type',
            event_type_id: '7d0c3b8e-2f4a-4c1e-9a57-3e1f2b6c8d90',
            host_user_ids: ['1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b'],
          },
        },
      ],
      fallback: { type: 'message', message: 'Thank you, we will be in touch.' },
      unbooked: null,
    },
  });

/**
 * Where a completed submission was routed (docs/forms.md "Routing"): the target, and for an event
 * type its page's booking URL and the hosts it offers. On the public receipt the booking URL carries
 * the signed, short-lived prefill token (also given as `prefill_token`), with the name and email
 * taken from the answers.
 */
export const zRouted = z
  .strictObject({
    target: z.enum(['event_type', 'url', 'message']),
    rule: z.number().int().nullable(),
    event_type_id: zId.nullable(),
    host_user_ids: z.array(zId).nullable(),
    booking_url: z.string().nullable(),
    url: z.string().nullable(),
    message: z.string().nullable(),
    prefill_token: z.string().optional(),
    prefill: z.strictObject({ name: z.string().nullable(), email: z.string().nullable() }).optional(),
  })
  .meta({ id: 'SubmissionRouting' });

export const zFormSettings = z
  .strictObject({
    redirect_url: z.string().nullable(),
    success_message: z.string().nullable(),
    submit_label: z.string().nullable(),
    notify_emails: z.array(z.string()),
    qualification: z
      .strictObject({
        match: z.enum(['all', 'any']).optional(),
        rules: z.array(
          z.strictObject({
            field: z.string(),
            operator: z.enum(QUALIFICATION_OPERATORS),
            value: z.union([scalar, z.array(z.union([z.string(), z.number()]))]).optional(),
          }),
        ),
      })
      .nullable(),
    embed_allowed_origins: z.array(z.string()).nullable(),
    routing: zRoutingSettings.nullable(),
    show_score: z.boolean().optional(),
  })
  .meta({ id: 'FormSettings' });

export const zForm = z
  .strictObject({
    id: zId,
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    type: z.enum(FORM_TYPES),
    status: z.enum(FORM_STATUSES),
    fields: z.array(zField),
    settings: zFormSettings,
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Form' });

export const zFormSummary = zForm
  .pick({ id: true, title: true, slug: true, type: true, status: true, created_at: true, updated_at: true })
  .meta({ id: 'FormSummary' });

const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const zSubmission = z
  .strictObject({
    id: zId,
    form_id: zId,
    contact_id: zId.nullable(),
    fields: z.record(z.string(), fieldValue),
    status: z.enum(['completed', 'partial']),
    qualified: z.boolean(),
    submitted_at: zIsoTime,
    metadata: z.record(z.string(), z.string().nullable()),
    /** Quiz forms: the completed submission's score and the maximum. */
    score: z.number().optional(),
    max_score: z.number().nullable().optional(),
    routing: zRouted.nullable(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Submission' });

/** The public submission endpoint's JSON answer. */
export const zSubmissionReceipt = z
  .strictObject({
    id: zId,
    status: z.enum(['completed', 'partial']),
    /** With `nav` (multi-step): the step to show next, whether it is the last, the fields the logic does not ask. */
    step: z.number().int().nullable().optional(),
    last: z.boolean().optional(),
    hidden_fields: z.array(z.string()).optional(),
    score: z.number().optional(),
    max_score: z.number().optional(),
    routing: zRouted.optional(),
  })
  .meta({ id: 'SubmissionReceipt' });

const counts = {
  views: z.number().int(),
  starts: z.number().int(),
  partial: z.number().int(),
  completed: z.number().int(),
};

export const zFormAnalytics = z
  .strictObject({
    form_id: zId,
    since: zIsoTime.nullable(),
    until: zIsoTime.nullable(),
    ...counts,
    completion_rate: z.number(),
    conversion_rate: z.number(),
    by_utm_source: z.array(z.strictObject({ utm_source: z.string().nullable(), ...counts })),
    by_device_type: z.array(z.strictObject({ device_type: z.string().nullable(), ...counts })),
  })
  .meta({ id: 'FormAnalytics' });
