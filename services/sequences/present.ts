import type { SequenceEnrollmentsRow } from '../../db/tables';
import type { SequenceStepsRow } from '../../db/tables';
import type { SequencesRow } from '../../db/tables';
import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';
import { exitReasonLabel } from '../../domain/exit-reasons';

export type SequenceRow = SequencesRow;

export type StepRow = SequenceStepsRow;

export type EnrollmentRow = SequenceEnrollmentsRow;

export function presentStep(s: StepRow) {
  return {
    id: s.id,
    sequence_id: s.sequence_id,
    position: s.position,
    channel: s.channel,
    delay: { value: s.delay_value, unit: s.delay_unit },
    subject: s.subject,
    body: s.body,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function presentSequence(s: SequenceRow, steps?: StepRow[]) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    status: s.status,
    exit_on_meeting_booked: s.exit_on_meeting_booked,
    exit_on_reply: s.exit_on_reply,
    exit_on_added_to_sequence_ids: s.exit_on_added_to_sequence_ids,
    skip_if_meeting_booked: s.skip_if_meeting_booked,
    send_from_email: s.send_from_email,
    send_from_number: s.send_from_number,
    sending_window: s.sending_window ?? null,
    ...(steps ? { steps: steps.map(presentStep) } : {}),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function presentEnrollment(e: EnrollmentRow) {
  return {
    id: e.id,
    sequence_id: e.sequence_id,
    contact_id: e.contact_id,
    status: e.status,
    skip_reason: e.skip_reason,
    exit_reason: e.exit_reason,
    exit_reason_label: exitReasonLabel(e.exit_reason, e.exit_detail),
    current_step: e.current_step,
    enrolled_at: e.enrolled_at,
    updated_at: e.updated_at,
  };
}

/* ---- Answer schemas: the shapes of the presenters above and of the sequence analytics. ---- */

export const zStep = z
  .strictObject({
    id: zId,
    sequence_id: zId,
    position: z.number().int(),
    channel: z.enum(['email', 'sms']),
    delay: z.strictObject({ value: z.number().int(), unit: z.enum(['minutes', 'hours', 'days']) }),
    subject: z.string().nullable(),
    body: z.string(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'SequenceStep' });

export const zSequence = z
  .strictObject({
    id: zId,
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['draft', 'active', 'paused', 'archived']),
    exit_on_meeting_booked: z.boolean(),
    exit_on_reply: z.boolean(),
    exit_on_added_to_sequence_ids: z.array(zId),
    skip_if_meeting_booked: z.boolean(),
    send_from_email: z.string().nullable(),
    send_from_number: z.string().nullable(),
    sending_window: z.strictObject({ days: z.array(z.number().int()), start: z.string(), end: z.string() }).nullable(),
    steps: z.array(zStep).optional(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Sequence' });

export const zEnrollment = z
  .strictObject({
    id: zId,
    sequence_id: zId,
    contact_id: zId,
    status: z.enum(['active', 'completed', 'exited', 'skipped']),
    skip_reason: z.string().nullable(),
    exit_reason: z.string().nullable(),
    exit_reason_label: z.string().nullable(),
    current_step: z.number().int(),
    enrolled_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Enrollment' });

export const zUnsubscribe = z
  .strictObject({
    id: zId,
    contact_id: zId,
    email: z.string().nullable(),
    channel: z.enum(['email', 'sms']),
    source: z.string(),
    created_at: zIsoTime,
  })
  .meta({ id: 'Unsubscribe' });

const stepCounts = {
  sent: z.number().int(),
  accepted: z.number().int(),
  delivered: z.number().int(),
  opened: z.number().int().meta({ description: 'Sends opened by a person (open pixel, a human click, a provider open event)' }),
  machine_opened: z
    .number()
    .int()
    .meta({ description: 'Sends whose pixel was fetched by a prefetching proxy or scanner (Apple Mail Privacy Protection…)' }),
  clicked: z.number().int().meta({ description: 'Sends with a link clicked by a person' }),
  scanner_clicked: z
    .number()
    .int()
    .meta({ description: 'Sends whose links were followed by a link scanner (seconds after delivery, or a scanner user agent)' }),
  bounced: z.number().int(),
  hard_bounced: z.number().int(),
  soft_bounced: z.number().int(),
  blocked: z.number().int().meta({ description: 'Bounces that refused the sender, not the address (a block): never suppress the address' }),
  complained: z.number().int(),
  replied: z.number().int(),
  auto_replied: z.number().int(),
  unsubscribed: z.number().int(),
  failed: z.number().int(),
};

export const zSequenceAnalytics = z
  .strictObject({
    enrolled: z.number().int(),
    active: z.number().int(),
    completed: z.number().int(),
    exited: z.number().int(),
    skipped: z.number().int(),
    steps: z.array(z.strictObject({ step_id: zId, position: z.number().int(), channel: z.enum(['email', 'sms']), ...stepCounts })),
  })
  .meta({ id: 'SequenceAnalytics' });
