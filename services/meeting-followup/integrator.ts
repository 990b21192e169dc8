import { notFound } from '../../core/errors';
import { jsonb } from '../../db/jsonb';
import type { Executor } from '../../db/knex';
import type { MeetingRecording } from '../../domain/meeting-followup';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { recordingReadyEvent } from './events';
import { storeTranscript } from './transcripts';
import { notesStart } from './workflow-starts';

/** Integrators bring their own recording or transcript (docs/scheduling.md "After the meeting"). */

async function teamMeeting(db: Executor, input: { teamId: string; id: string }): Promise<MeetingRow> {
  const m = await db('meetings').where({ id: input.id, team_id: input.teamId }).forUpdate().first();
  if (!m) throw notFound('Meeting');
  return m;
}

/** PUT …/recording: sets it, emits `meeting.recording_ready`, and starts the notes step. */
export async function setMeetingRecording(
  deps: ServiceDeps,
  input: { teamId: string; id: string; recording: MeetingRecording },
): Promise<MeetingRow> {
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await teamMeeting(trx, input);
    const [row] = await trx('meetings')
      .where({ id: m.id })
      .update({ recording: jsonb(input.recording), recording_provider_id: null, recording_reason: null, updated_at: trx.fn.now() })
      .returning('*');
    await recordingReadyEvent(trx, enqueue, { teamId: m.team_id, meetingId: m.id, recording: input.recording, source: 'integrator' });
    await enqueue(notesStart(m, 'a recording was set'));
    return row;
  });
}

export interface AddTranscriptInput {
  teamId: string;
  id: string;
  values: { format: 'vtt' | 'text'; content: string };
}

/** POST …/transcript: keeps it sealed (replacing the provider's) and starts the notes step. */
export async function addMeetingTranscript(deps: ServiceDeps, input: AddTranscriptInput): Promise<MeetingRow> {
  const { values } = input;
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await teamMeeting(trx, input);
    await storeTranscript(
      { db: trx, config: deps.config },
      {
        meetingId: m.id,
        teamId: m.team_id,
        content: values.content,
        format: values.format,
        source: 'integrator',
      },
    );
    await trx('meetings').where({ id: m.id }).whereNull('ai_notes').update({ ai_notes_reason: 'pending' });
    await enqueue(notesStart(m, 'a transcript was added'));
    return teamMeeting(trx, input);
  });
}
