import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { deleteMeeting, listMeetings, readMeeting, updateMeeting } from '../../../services/scheduling/meetings';
import { addMeetingTranscript, setMeetingRecording } from '../../../services/meeting-followup/integrator';
import { presentForTeam } from '../../../services/scheduling/meetings';
import { meetingAnswer, meetingList, meetingListQuery, meetingPatchBody, meetingRecordingBody, meetingTranscriptBody } from './schema';

const tags = ['meetings'];

export const meetingRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/meetings',
    auth: { scope: 'meetings:read' },
    tags,
    summary: 'List meetings (ordered by start time), including AI notes',
    query: meetingListQuery,
    response: meetingList,
    handler: ({ query, principal, deps }) => listMeetings(deps, { teamId: principal.teamId, page: toPage(query), filters: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/meetings/:id',
    auth: { scope: 'meetings:read' },
    tags,
    summary: 'Read a meeting with ai_notes, recording and field_values',
    params: zIdParams,
    response: meetingAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await readMeeting(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/meetings/:id',
    auth: { scope: 'meetings:write' },
    tags,
    summary:
      "Change a meeting's status, notes or cancellation reason, or reschedule it with start_time (the meeting becomes `rescheduled`, linked to the new one by rescheduled_to_id)",
    params: zIdParams,
    body: meetingPatchBody,
    response: meetingAnswer,
    conflict:
      '`invalid_transition`: the meeting cannot move to this status (or take a cancellation_reason) from its current one; `slot_unavailable`: the new start_time is taken',
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateMeeting(deps, { teamId: principal.teamId, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/v1/meetings/:id/recording',
    auth: { scope: 'meetings:write' },
    tags,
    summary:
      'Set the meeting\'s recording (an integrator\'s own): emits meeting.recording_ready and starts the AI notes step (docs/scheduling.md "After the meeting")',
    params: zIdParams,
    body: meetingRecordingBody,
    response: meetingAnswer,
    handler: async ({ params, body, principal, deps }) => {
      const meeting = await setMeetingRecording(deps, { teamId: principal.teamId, id: params.id, recording: body });
      return { data: await presentForTeam(deps, { meeting }) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/meetings/:id/transcript',
    auth: { scope: 'meetings:write' },
    tags,
    status: 202,
    summary:
      'Add a transcript (WebVTT or plain text, at most 500,000 characters), kept sealed; starts the AI notes step, whose result appears as ai_notes and meeting.notes_ready',
    params: zIdParams,
    body: meetingTranscriptBody,
    response: meetingAnswer,
    handler: async ({ params, body, principal, deps }) => {
      const meeting = await addMeetingTranscript(deps, { teamId: principal.teamId, id: params.id, values: body });
      return { data: await presentForTeam(deps, { meeting }) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/meetings/:id',
    auth: { scope: 'meetings:delete' },
    tags,
    status: 204,
    summary: 'Delete a meeting; its video meeting and calendar event are cleaned up',
    params: zIdParams,
    handler: ({ params, principal, deps }) => deleteMeeting(deps, { teamId: principal.teamId, id: params.id }),
  }),
];
