import type { WorkflowStart } from '../../temporal/outbox';
import { followupWorkflowId, notesWorkflowId } from '../../workflows/scheduling/contract';
import { uuid } from '../../core/crypto';
import { code, detailsMarkdown, oneLine, utcShort } from '../operators/metadata';
import type { MeetingRow } from '../meetings/row';

type Meeting = Pick<MeetingRow, 'id' | 'team_id' | 'title' | 'start_time' | 'end_time' | 'contact_id'>;

const rows = (m: Meeting): Array<[string, string | null]> => [
  ['Meeting', `${code(m.id)}: \`/api/v1/meetings/${m.id}\``],
  ['When', `${new Date(m.start_time).toISOString()} – ${new Date(m.end_time).toISOString()}`],
  ['Contact', m.contact_id ? code(m.contact_id) : null],
  ['Team', code(m.team_id)],
];
const attributes = (m: Meeting) => ({ TeamId: m.team_id, MeetingId: m.id, ...(m.contact_id ? { ContactId: m.contact_id } : {}) });

/** `meeting-followup-<id>` (docs/operators.md): started with the meeting's completion. */
export function followupStart(m: Meeting): WorkflowStart<'meetingFollowupWorkflow'> {
  return {
    workflowType: 'meetingFollowupWorkflow',
    workflowId: followupWorkflowId(m.id),
    args: [{ meetingId: m.id, teamId: m.team_id }],
    searchAttributes: attributes(m),
    summary: oneLine(`Follow-up of ${oneLine(m.title, 80)}, ${utcShort(m.start_time)}`),
    details: detailsMarkdown(`After ${m.title}: recording, transcript, AI notes`, rows(m)),
  };
}

/** `meeting-notes-<id>-<n>`: the notes step after an integrator brought a recording or a transcript. */
export function notesStart(m: Meeting, why: string): WorkflowStart<'meetingNotesWorkflow'> {
  return {
    workflowType: 'meetingNotesWorkflow',
    workflowId: notesWorkflowId(m.id, uuid()),
    args: [{ meetingId: m.id, teamId: m.team_id }],
    searchAttributes: attributes(m),
    summary: oneLine(`AI notes of ${oneLine(m.title, 80)}, ${utcShort(m.start_time)} (${why})`),
    details: detailsMarkdown(`AI notes of ${m.title} after ${why}`, rows(m)),
  };
}
