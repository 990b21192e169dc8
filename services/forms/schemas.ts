import { z } from 'zod';
import { FIELD_TYPES, CHOICE_TYPES } from '../../domain/form-fields';
import { QUALIFICATION_OPERATORS } from '../../domain/qualification';
import { LOGIC_ACTIONS, LOGIC_OPERATORS } from '../../domain/form-logic';
import { zUuid } from '../../core/validate';

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Non-empty text without control characters. */
export const text = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((s) => !CONTROL.test(s), { error: 'contains control characters' });

export const FORM_TYPES = ['standard', 'multi_step', 'quiz'] as const;
export const FORM_STATUSES = ['draft', 'published', 'archived'] as const;
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const option = z.union([
  text(200, 1),
  z.strictObject({
    label: text(200, 1),
    value: text(200, 1),
    /** Quiz: points for this option (may be negative). */
    points: z.number().finite().min(-1000).max(1000).optional(),
    /** Quiz: a correct answer (scores 1 unless `points` says otherwise). */
    correct: z.boolean().optional(),
  }),
]);

/** A conditional-logic rule on a field (domain/form-logic.ts); cross-field checks run on save. */
const logicRule = z.strictObject({
  when: z.strictObject({
    field: z.string().min(1).max(64),
    operator: z.enum(LOGIC_OPERATORS),
    value: z.union([text(1000), z.number().finite(), z.boolean()]).optional(),
  }),
  action: z.enum(LOGIC_ACTIONS),
  to: z.number().int().min(0).max(1000).optional(),
});

export const fieldInput = z
  .strictObject({
    id: zUuid.optional(),
    type: z.enum(FIELD_TYPES),
    label: text(200, 1),
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { error: 'must be letters, digits and _ (max 64), not starting with a digit' })
      .optional(),
    placeholder: text(200).nullable().optional(),
    required: z.boolean().optional(),
    /** Accepted so a GET response can be sent back; the array order decides. */
    position: z.number().int().min(0).optional(),
    options: z.array(option).min(1).max(200).optional(),
    min: z.number().finite().nullable().optional(),
    max: z.number().finite().nullable().optional(),
    default_value: text(1000).nullable().optional(),
    /** multi_step and quiz forms: the step (0-based) the field is on. */
    page: z.number().int().min(0).max(1000).optional(),
    logic: z.array(logicRule).max(20).optional(),
  })
  .superRefine((f, ctx) => {
    if (CHOICE_TYPES.includes(f.type) && !f.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `is required for a ${f.type} field` });
    if (!CHOICE_TYPES.includes(f.type) && f.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `is only for select, multi_select and radio fields` });
    if (f.type === 'rating' && f.max != null && (!Number.isInteger(f.max) || f.max < 1 || f.max > 10)) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'must be a whole number from 1 to 10 for a rating' });
    }
    if (f.min != null && f.max != null && f.min > f.max) ctx.addIssue({ code: 'custom', path: ['min'], message: 'must not exceed max' });
  });
export type FieldInput = z.infer<typeof fieldInput>;

const fieldsInput = z
  .array(fieldInput)
  .max(200)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (!f.name) return;
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicates the name "${f.name}"` });
      seen.add(f.name);
    });
  });

const rule = z.strictObject({
  field: z.string().min(1).max(64),
  operator: z.enum(QUALIFICATION_OPERATORS),
  value: z.union([text(1000), z.number().finite(), z.boolean(), z.array(z.union([text(1000), z.number().finite()])).max(100)]).optional(),
});

/** A routing target (domain/routing.ts): an event type (optionally a subset of its page's hosts), a URL or a message. */
const routingTarget = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('event_type'),
    event_type_id: zUuid,
    host_user_ids: z.array(zUuid).min(1).max(100).optional(),
  }),
  z.strictObject({ type: z.literal('url'), url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048) }),
  z.strictObject({ type: z.literal('message'), message: text(2000, 1) }),
]);

/** Routing rules (domain/routing.ts), in the conditions vocabulary of qualification; cross-checks run on save. */
const routingInput = z.strictObject({
  rules: z
    .array(z.strictObject({ match: z.enum(['all', 'any']).optional(), conditions: z.array(rule).max(50), target: routingTarget }))
    .max(50),
  fallback: routingTarget.nullable().optional(),
  unbooked: z
    .strictObject({
      after_hours: z
        .number()
        .positive()
        .max(24 * 90),
      sequence_id: zUuid,
    })
    .nullable()
    .optional(),
});

/**
 * An origin allowed to frame the embedded form (CSP frame-ancestors source): scheme and host,
 * optional port, optional leading `*.` wildcard label; no path. Stored lowercased.
 */
const embedOrigin = z
  .string()
  .max(255)
  .regex(/^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?\/?$/, {
    error: 'must be an origin such as https://example.com or https://*.example.com (no path)',
  })
  .transform((s) => s.toLowerCase().replace(/\/$/, ''));

export const settingsInput = z.strictObject({
  /** Who may frame `/f/<slug>?embed=1`: null = anyone, [] = nobody. */
  embed_allowed_origins: z.array(embedOrigin).max(50).nullable().optional(),
  redirect_url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2048)
    .nullable()
    .optional(),
  success_message: text(2000).nullable().optional(),
  submit_label: text(100).nullable().optional(),
  /** Quiz forms: show the score on the thank-you page. */
  show_score: z.boolean().optional(),
  notify_emails: z.array(z.email()).max(20).optional(),
  qualification: z
    .strictObject({ match: z.enum(['all', 'any']).optional(), rules: z.array(rule).max(50) })
    .nullable()
    .optional(),
  routing: routingInput.nullable().optional(),
});
export type SettingsInput = z.infer<typeof settingsInput>;

const formShape = {
  title: text(200, 1).optional(),
  name: text(200, 1).optional(),
  slug: z
    .string()
    .max(100)
    .regex(SLUG, { error: 'must be lowercase words joined by -' })
    .refine((s) => !zUuid.safeParse(s).success, { error: 'must not look like a form id' })
    .optional(),
  description: text(5000).nullable().optional(),
  type: z.enum(FORM_TYPES).optional(),
  status: z.enum(FORM_STATUSES).optional(),
  fields: fieldsInput.optional(),
  settings: settingsInput.optional(),
};

const titleAlias = (b: { title?: string; name?: string }) => !(b.title && b.name && b.title !== b.name);

export const createFormBody = z
  .strictObject(formShape)
  .refine((b) => b.title || b.name, { error: 'title (or its alias name) is required', path: ['title'] })
  .refine(titleAlias, { error: 'title and name are aliases; send one', path: ['name'] });
export type CreateFormInput = z.infer<typeof createFormBody>;

export const updateFormBody = z
  .strictObject(formShape)
  .refine(titleAlias, { error: 'title and name are aliases; send one', path: ['name'] });
export type UpdateFormInput = z.infer<typeof updateFormBody>;

export const TRACKING_KEYS = [
  'partner_token',
  'attribution_id',
  'tracking_id',
  'visitor_id',
  'session_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const;
export type TrackingKey = (typeof TRACKING_KEYS)[number];

export const trackingInput = z.strictObject({
  ...Object.fromEntries(TRACKING_KEYS.map((k) => [k, text(500).nullable().optional()])),
  referrer: text(2048).nullable().optional(),
} as Record<TrackingKey | 'referrer', z.ZodOptional<z.ZodNullable<z.ZodString>>>);

/** Public submission body (JSON, or an HTML form's `fields[name]=…` encoding). */
export const publicSubmissionBody = z.strictObject({
  fields: z.record(z.string().max(64), z.unknown()).optional(),
  status: z.enum(['completed', 'partial']).optional(),
  submission_id: zUuid.optional(),
  /** Multi-step forms: the step these answers belong to (its required fields are checked on a partial save). */
  step: z.coerce.number().int().min(0).max(1000).optional(),
  /** Multi-step forms: move on from `step` (`next`: checked, then saved; the last step completes) or back to the previous step. */
  nav: z.enum(['next', 'back']).optional(),
  tracking: trackingInput.optional(),
  /** Honeypot: people never see it; anything in it marks a bot. */
  website_url: z.string().max(2048).optional(),
});
export type PublicSubmissionInput = z.infer<typeof publicSubmissionBody>;
