import type { WorkflowStart } from '../../temporal/outbox';
import {
  bookingWorkflowId,
  cleanupWorkflowId,
  type BookingWorkflowInput,
  type CleanupWorkflowInput,
} from '../../workflows/scheduling/contract';
import { code, detailsMarkdown, oneLine, utcShort } from '../operators/metadata';
import type { MeetingRow } from '../meetings/row';

type Meeting = Pick<
  MeetingRow,
  'id' | 'team_id' | 'title' | 'start_time' | 'end_time' | 'attendee_email' | 'status' | 'contact_id' | 'host_user_id'
>;

function meetingRows(m: Meeting): Array<[string, string | null]> {
  return [
    ['Meeting', `${code(m.id)}: \`/api/v1/meetings/${m.id}\``],
    ['When', `${new Date(m.start_time).toISOString()} – ${new Date(m.end_time).toISOString()}`],
    ['Attendee', m.attendee_email],
    ['Contact', m.contact_id ? `${code(m.contact_id)}: \`/api/v1/contacts/${m.contact_id}\`` : null],
    ['Host', code(m.host_user_id)],
    ['Team', code(m.team_id)],
  ];
}

/**
 * The booking workflow's start: `Intro call with ada@example.com, 3 Dec 14:00 UTC` as its summary,
 * the meeting start and status as search attributes (docs/operators.md).
 */
export function bookingStart(input: {
  meeting: Meeting;
  args: BookingWorkflowInput;
  memo: Record<string, unknown>;
  emailKey: (email: string) => string;
}): WorkflowStart<'bookingWorkflow'> {
  const { meeting: m, args, memo, emailKey } = input;
  const moved = args.rescheduledFromId ? ` (moved from meeting ${args.rescheduledFromId})` : '';
  return {
    workflowType: 'bookingWorkflow',
    workflowId: bookingWorkflowId(m.id),
    args: [args],
    searchAttributes: {
      TeamId: m.team_id,
      MeetingId: m.id,
      MeetingStart: new Date(m.start_time).toISOString(),
      MeetingStatus: m.status,
      ...(m.contact_id ? { ContactId: m.contact_id } : {}),
      ...(m.attendee_email ? { ContactEmailKey: emailKey(m.attendee_email) } : {}),
    },
    memo,
    summary: oneLine(
      `${oneLine(m.title, 80)}${m.attendee_email ? ` (${m.attendee_email})` : ''}, ${utcShort(m.start_time)}` +
        (m.status === 'pending_confirmation' ? ', to confirm' : ''),
    ),
    details: detailsMarkdown(`${m.title}${moved}`, [
      ...meetingRows(m),
      ['Signals', '`meetingConfirmed` and `meetingCancelled` only wake it: it re-reads the meeting'],
    ]),
  };
}

/** The cleanup workflow's start (after a cancellation or a deletion). */
export function cleanupStart(m: Meeting, args: CleanupWorkflowInput): WorkflowStart<'meetingCleanupWorkflow'> {
  return {
    workflowType: 'meetingCleanupWorkflow',
    workflowId: cleanupWorkflowId(m.id),
    args: [args],
    searchAttributes: { TeamId: m.team_id, MeetingId: m.id, ...(m.contact_id ? { ContactId: m.contact_id } : {}) },
    summary: oneLine(`Cleanup of ${oneLine(m.title, 80)}, ${utcShort(m.start_time)}`),
    details: detailsMarkdown(`Cleanup of ${m.title}: cancellation emails, calendar removal, video room`, meetingRows(m)),
  };
}
