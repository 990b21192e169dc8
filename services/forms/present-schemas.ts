import { z } from 'zod';
import { FIELD_TYPES } from '../../domain/form-fields';
import { QUALIFICATION_OPERATORS } from '../../domain/qualification';
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
    options: z.array(z.strictObject({ label: z.string(), value: z.string() })).optional(),
    min: z.number().nullable().optional(),
    max: z.number().nullable().optional(),
    default_value: z.string().nullable().optional(),
  })
  .meta({ id: 'FormField' });

const scalar = z.union([z.string(), z.number(), z.boolean()]);

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
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Submission' });

/** The public submission endpoint's JSON answer. */
export const zSubmissionReceipt = z.strictObject({ id: zId, status: z.enum(['completed', 'partial']) }).meta({ id: 'SubmissionReceipt' });

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
