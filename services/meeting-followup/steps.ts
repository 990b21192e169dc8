import { roomOfLink } from '../../core/video';
import { followupProvider, zoomFollowupStart } from '../zoom/followup';
import { AiRateLimitedError } from '../../core/ai-notes';
import { logger } from '../../core/logger';
import { jsonb } from '../../db/jsonb';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { FollowupBegin, FollowupPlan } from '../../workflows/scheduling/contract';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { notesReadyEvent, recordingReadyEvent } from './events';
import { NotesMalformedError, summariseTranscript } from './summarise';
import { storeTranscript, transcriptText } from './transcripts';

/**
 * The follow-up workflow's steps (activities/meeting-followup.ts adapts them; docs/scheduling.md
 * "After the meeting"). Each re-reads the meeting and is safe to run twice.
 */

/** Thrown while the provider is still processing: the activity's retry policy asks again later. */
export class StillProcessingError extends Error {}

const meeting = (deps: Pick<ServiceDeps, 'db'>, id: string): Promise<MeetingRow | undefined> => deps.db('meetings').where({ id }).first();
const VIDEO = ['video_provider_1', 'video_provider_2', 'video_provider_3'];

async function aiNotesOn(deps: Pick<ServiceDeps, 'db'>, m: MeetingRow): Promise<boolean> {
  if (!m.event_type_id) return false;
  const et = await deps.db('event_types').where({ id: m.event_type_id }).first('ai_notes_enabled');
  return et?.ai_notes_enabled === true;
}

export async function planMeetingFollowup(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { meetingId: string },
): Promise<FollowupPlan | null> {
  const m = await meeting(deps, input.meetingId);
  if (!m) return null;
  return {
    endMs: new Date(m.end_time).getTime(),
    graceMs: deps.config.MEETING_FOLLOWUP_GRACE_MINUTES * 60_000,
    recordingWaitMs: deps.config.MEETING_RECORDING_WAIT_HOURS * 3_600_000,
  };
}

/**
 * After the grace period: a meeting that did not take place (cancelled, rescheduled, no-show,
 * deleted) is marked `not_held` and skipped; one that did is `pending` for what its provider can
 * give, or says why it gives nothing (`no_video`, `provider_has_no_api`).
 */
export async function beginMeetingFollowup(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meetingId: string },
): Promise<FollowupBegin> {
  const { db } = deps;
  const m = await meeting(deps, input.meetingId);
  if (!m) return { held: false, status: 'deleted', recording: false, transcript: false };
  if (m.status !== 'completed') {
    await db('meetings').where({ id: m.id }).whereNull('recording').update({ recording_reason: 'not_held' });
    await db('meetings').where({ id: m.id }).whereNull('ai_notes').update({ ai_notes_reason: 'not_held' });
    return { held: false, status: m.status, recording: false, transcript: false };
  }
  const zoom = await zoomFollowupStart(deps, { meeting: m, transcript: await aiNotesOn(deps, m) });
  if (zoom) {
    const reason = 'reason' in zoom ? zoom.reason : 'pending';
    await db('meetings').where({ id: m.id }).whereNull('recording').update({ recording_reason: reason });
    await db('meetings').where({ id: m.id }).whereNull('ai_notes').update({ ai_notes_reason: 'pending' });
    if ('reason' in zoom) return { held: true, status: m.status, recording: false, transcript: false };
    return { held: true, status: m.status, recording: true, transcript: zoom.waitFor.length > 1, waitFor: zoom.waitFor };
  }
  const provider = m.meeting_link ? deps.video.providerOf(m.location_type) : null;
  const recording = !!provider?.findRecording;
  const hasVideo = !!m.meeting_link && VIDEO.includes(m.location_type ?? '');
  const reason = recording ? 'pending' : hasVideo ? 'provider_has_no_api' : 'no_video';
  await db('meetings').where({ id: m.id }).whereNull('recording').update({ recording_reason: reason });
  await db('meetings').where({ id: m.id }).whereNull('ai_notes').update({ ai_notes_reason: 'pending' });
  return { held: true, status: m.status, recording, transcript: recording && (await aiNotesOn(deps, m)) };
}

/** Ask the provider for the recording; store it and emit `meeting.recording_ready` once. */
export async function fetchMeetingRecording(deps: ServiceDeps, input: { meetingId: string }): Promise<string> {
  const m = await meeting(deps, input.meetingId);
  if (!m?.meeting_link) return 'none';
  if (m.recording) return 'already_set';
  const provider = followupProvider(deps, { meeting: m });
  if (!provider?.findRecording) return 'none';
  const found = await provider.findRecording(roomOfLink(m.meeting_link));
  if (found.state === 'processing') throw new StillProcessingError(`the recording of meeting ${m.id} is still processing`);
  if (found.state === 'none') {
    await deps.db('meetings').where({ id: m.id }).whereNull('recording').update({ recording_reason: 'not_recorded' });
    return 'none';
  }
  const recording = { url: found.url, duration_seconds: found.durationSeconds };
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const n = await trx('meetings')
      .where({ id: m.id })
      .whereNull('recording')
      .update({ recording: jsonb(recording), recording_provider_id: found.id, recording_reason: null, updated_at: trx.fn.now() });
    if (n) await recordingReadyEvent(trx, enqueue, { teamId: m.team_id, meetingId: m.id, recording, source: 'provider' });
    return n ? 'stored' : 'already_set';
  });
}

/** Given up waiting for the recording (MEETING_RECORDING_WAIT_HOURS). */
export async function meetingRecordingUnavailable(deps: Pick<ServiceDeps, 'db'>, input: { meetingId: string }): Promise<void> {
  await deps.db('meetings').where({ id: input.meetingId }).whereNull('recording').update({ recording_reason: 'not_recorded' });
}

/** Ask the provider for the transcript (AI notes on only) and keep it sealed. */
export async function fetchMeetingTranscript(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meetingId: string },
): Promise<string> {
  const m = await meeting(deps, input.meetingId);
  if (!m?.meeting_link || !(await aiNotesOn(deps, m))) return 'none';
  const provider = followupProvider(deps, { meeting: m });
  if (!provider?.findTranscript) return 'none';
  const found = await provider.findTranscript(roomOfLink(m.meeting_link));
  if (found.state === 'processing') throw new StillProcessingError(`the transcript of meeting ${m.id} is still processing`);
  if (found.state === 'none') return 'none';
  await storeTranscript(deps, { meetingId: m.id, teamId: m.team_id, content: found.vtt, format: 'vtt', source: 'provider' });
  return 'stored';
}

export type NotesOutcome = 'stored' | 'deleted' | 'disabled' | 'not_configured' | 'no_transcript' | 'failed';

/**
 * The notes: only for an event type with AI notes on (nothing is sent anywhere otherwise), only
 * with a notes provider configured, only from a kept transcript. A 429 throws AiRateLimitedError
 * (the activity turns it into a retry after Retry-After); malformed answers end in `failed`.
 */
export async function writeMeetingNotes(deps: ServiceDeps, input: { meetingId: string }): Promise<NotesOutcome> {
  const { db, config } = deps;
  const m = await meeting(deps, input.meetingId);
  if (!m) return 'deleted';
  const unavailable = async (reason: Exclude<NotesOutcome, 'stored' | 'deleted'>) => {
    await db('meetings').where({ id: m.id }).whereNull('ai_notes').update({ ai_notes_reason: reason });
    return reason;
  };
  if (!(await aiNotesOn(deps, m))) return unavailable('disabled');
  if (!config.AI_NOTES_API_URL) return unavailable('not_configured');
  const text = await transcriptText(deps, { meetingId: m.id });
  if (!text) return unavailable('no_transcript');
  let notes;
  try {
    notes = await summariseTranscript(config, { text });
  } catch (err) {
    if (err instanceof AiRateLimitedError || !(err instanceof NotesMalformedError)) throw err;
    logger.warn({ meetingId: m.id, error: err.message }, 'AI notes: malformed answers');
    return unavailable('failed');
  }
  return transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
    // a contact erased meanwhile keeps no notes
    const n = await trx('meetings')
      .where({ id: m.id })
      .where((q) => q.whereNull('ai_notes_reason').orWhereNot({ ai_notes_reason: 'erased' }))
      .update({ ai_notes: jsonb(notes), ai_notes_reason: null, updated_at: trx.fn.now() });
    if (n) await notesReadyEvent(trx, enqueue, { teamId: m.team_id, meetingId: m.id, notes });
    return n ? 'stored' : 'deleted';
  });
}

/** The notes step was given up (the provider kept failing): `failed`. */
export async function meetingNotesFailed(deps: Pick<ServiceDeps, 'db'>, input: { meetingId: string }): Promise<void> {
  await deps.db('meetings').where({ id: input.meetingId }).whereNull('ai_notes').update({ ai_notes_reason: 'failed' });
}
