import type { Executor } from '../../db/knex';
import type { MeetingAiNotes, MeetingRecording } from '../../domain/meeting-followup';
import type { Enqueue } from '../../temporal/outbox';
import { recordEvent } from '../events/record';

/**
 * The two webhook events of the follow-up (docs/webhooks.md "Events"; their payload schemas are
 * in the OpenAPI document's `webhooks`). Only subscriptions without `form_id` receive them.
 */
export async function recordingReadyEvent(
  trx: Executor,
  enqueue: Enqueue,
  input: { teamId: string; meetingId: string; recording: MeetingRecording; source: 'provider' | 'integrator' },
): Promise<void> {
  const data = { meeting_id: input.meetingId, recording: input.recording, source: input.source };
  await recordEvent(trx, enqueue, {
    teamId: input.teamId,
    type: 'meeting.recording_ready',
    payload: { event: 'meeting.recording_ready', timestamp: new Date().toISOString(), data },
  });
}

export async function notesReadyEvent(
  trx: Executor,
  enqueue: Enqueue,
  input: { teamId: string; meetingId: string; notes: MeetingAiNotes },
): Promise<void> {
  const data = { meeting_id: input.meetingId, ai_notes: input.notes };
  await recordEvent(trx, enqueue, {
    teamId: input.teamId,
    type: 'meeting.notes_ready',
    payload: { event: 'meeting.notes_ready', timestamp: new Date().toISOString(), data },
  });
}
