import { z } from 'zod';
import { isValidHhmm } from '../../domain/sending-window';
import { unknownPlaceholders } from '../../domain/templates';
import { zText, zUuid } from '../../core/validate';

const template = (max: number) =>
  zText(max).superRefine((s, ctx) => {
    const bad = unknownPlaceholders(s);
    if (bad.length) ctx.addIssue({ code: 'custom', message: `unknown placeholder(s): ${bad.join(', ')}` });
  });

export const zStepInput = z
  .strictObject({
    id: zUuid.optional(),
    channel: z.enum(['email', 'sms']),
    delay: z
      .strictObject({ value: z.number().int().min(0).max(10_000), unit: z.enum(['minutes', 'hours', 'days']) })
      .default({ value: 0, unit: 'days' }),
    subject: template(300).optional(),
    body: template(50_000).pipe(z.string().min(1)),
  })
  .superRefine((s, ctx) => {
    if (s.channel === 'email' && !s.subject) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'an email step needs a subject' });
    if (s.channel === 'sms' && s.subject !== undefined)
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'an SMS step has no subject' });
    if (s.channel === 'sms' && s.body.length > 1600)
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'an SMS body is at most 1600 characters' });
  });
export type StepInput = z.infer<typeof zStepInput>;

export const zSendingWindow = z
  .strictObject({
    days: z.array(z.number().int().min(0).max(6)).min(1).max(7),
    start: z.string().refine(isValidHhmm, { error: 'must be HH:MM' }),
    end: z.string().refine(isValidHhmm, { error: 'must be HH:MM' }),
  })
  .refine((w) => w.start < w.end, { error: 'end must be later than start', path: ['end'] });

const common = {
  name: zText(200).pipe(z.string().trim().min(1)),
  description: zText(5000).nullable().optional(),
  steps: z.array(zStepInput).max(50),
  exit_on_meeting_booked: z.boolean(),
  exit_on_reply: z.boolean(),
  exit_on_added_to_sequence_ids: z.array(zUuid).max(100),
  skip_if_meeting_booked: z.boolean(),
  send_from_email: z.email({ error: 'must be an email address' }).max(320).nullable(),
  send_from_number: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, { error: 'must be an E.164 number such as +15551234567' })
    .nullable(),
  sending_window: zSendingWindow.nullable(),
};

export const zSequenceCreate = z.strictObject({
  ...common,
  status: z.enum(['draft', 'active']).default('draft'),
  steps: common.steps.default([]),
  exit_on_meeting_booked: common.exit_on_meeting_booked.default(false),
  exit_on_reply: common.exit_on_reply.default(true),
  exit_on_added_to_sequence_ids: common.exit_on_added_to_sequence_ids.default([]),
  skip_if_meeting_booked: common.skip_if_meeting_booked.default(false),
  send_from_email: common.send_from_email.optional(),
  send_from_number: common.send_from_number.optional(),
  sending_window: common.sending_window.optional(),
});
export type SequenceCreate = z.infer<typeof zSequenceCreate>;

export const zSequencePatch = z.strictObject({
  name: common.name.optional(),
  description: common.description,
  status: z.enum(['draft', 'active', 'paused', 'archived']).optional(),
  steps: common.steps.optional(),
  exit_on_meeting_booked: common.exit_on_meeting_booked.optional(),
  exit_on_reply: common.exit_on_reply.optional(),
  exit_on_added_to_sequence_ids: common.exit_on_added_to_sequence_ids.optional(),
  skip_if_meeting_booked: common.skip_if_meeting_booked.optional(),
  send_from_email: common.send_from_email.optional(),
  send_from_number: common.send_from_number.optional(),
  sending_window: common.sending_window.optional(),
});
export type SequencePatch = z.infer<typeof zSequencePatch>;

export const ENROLL_MAX = 1000;

export const zEnrollBody = z
  .strictObject({
    contact_id: zUuid.optional(),
    contact_ids: z
      .array(zUuid)
      .min(1)
      .max(ENROLL_MAX, { error: `at most ${ENROLL_MAX} contacts per request` })
      .optional(),
    email: z.email({ error: 'must be an email address' }).max(320).optional(),
    first_name: zText(200).optional(),
    last_name: zText(200).optional(),
    phone: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, { error: 'must be an E.164 number' })
      .optional(),
    timezone: z.string().max(64).optional(),
  })
  .superRefine((b, ctx) => {
    const given = [b.contact_id, b.contact_ids, b.email].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', message: 'send exactly one of contact_id, contact_ids or email' });
    if (!b.email && (b.first_name || b.last_name || b.phone || b.timezone)) {
      ctx.addIssue({ code: 'custom', message: 'first_name, last_name, phone and timezone go with email only' });
    }
  });
export type EnrollBody = z.infer<typeof zEnrollBody>;

export const zUnsubscribeBody = z
  .strictObject({
    contact_ids: z.array(zUuid).min(1).max(ENROLL_MAX).optional(),
    emails: z
      .array(z.email({ error: 'must be an email address' }).max(320))
      .min(1)
      .max(ENROLL_MAX)
      .optional(),
    channel: z.enum(['email', 'sms', 'all']).default('all'),
  })
  .refine((b) => (b.contact_ids ? 1 : 0) + (b.emails ? 1 : 0) === 1, { error: 'send exactly one of contact_ids or emails' });
export type UnsubscribeBody = z.infer<typeof zUnsubscribeBody>;
