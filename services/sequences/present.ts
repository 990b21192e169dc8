import { exitReasonLabel } from '../../domain/exit-reasons';

export interface SequenceRow {
  id: string;
  team_id: string;
  name: string;
  description: string | null;
  status: string;
  exit_on_meeting_booked: boolean;
  exit_on_reply: boolean;
  exit_on_added_to_sequence_ids: string[];
  skip_if_meeting_booked: boolean;
  send_from_email: string | null;
  send_from_number: string | null;
  sending_window: unknown;
  created_at: Date;
  updated_at: Date;
}

export interface StepRow {
  id: string;
  sequence_id: string;
  position: number;
  channel: 'email' | 'sms';
  delay_value: number;
  delay_unit: 'minutes' | 'hours' | 'days';
  subject: string | null;
  body: string;
  created_at: Date;
  updated_at: Date;
}

export interface EnrollmentRow {
  id: string;
  sequence_id: string;
  contact_id: string;
  status: string;
  skip_reason: string | null;
  exit_reason: string | null;
  exit_detail: { sequence_name?: string } | null;
  current_step: number;
  enrolled_at: Date;
  updated_at: Date;
}

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
