import { condition, log, proxyActivities, setCurrentDetails, setHandler, sleep } from '@temporalio/workflow';
import type { FollowupActivities } from '../../activities/meeting-followup';
import { videoProviderEventSignal, type FollowupBegin, type FollowupWorkflowInput } from './contract';

const acts = proxyActivities<FollowupActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '5 minutes' },
});

/**
 * The notes step: bounded (a day, 10 attempts). A 429 is retried after the provider's Retry-After
 * (the activity's ApplicationFailure carries it as nextRetryDelay); a malformed answer is asked
 * again inside the activity, a bounded number of times.
 */
export const notesOptions = {
  startToCloseTimeout: '10 minutes',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 10 },
} as const;
const notes = proxyActivities<FollowupActivities>(notesOptions);

const details = (text: string) => setCurrentDetails(`follow-up: ${text}`);
const at = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, 'Z');

/** The notes step, and `failed` recorded on the meeting when it is given up. */
async function notesStep(meetingId: string): Promise<string> {
  details('asking the notes provider for a summary and action items');
  try {
    return await notes.writeMeetingNotes(meetingId);
  } catch (err) {
    log.warn('AI notes given up', { meetingId, error: String(err) });
    await acts.meetingNotesFailed(meetingId);
    return 'failed';
  }
}

/**
 * Zoom (docs/scheduling.md "Zoom"): no polling; wait for the webhooks' signals until what the
 * follow-up needs has come, the host deleted the meeting in Zoom, or MEETING_RECORDING_WAIT_HOURS
 * passed. The details name the events still awaited. Answers whether the meeting is gone in Zoom.
 */
async function awaitProviderEvents(meetingId: string, begin: FollowupBegin, waitMs: number, signals: () => number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const seen = await acts.providerEventsSeen(meetingId);
    if (seen.deleted) return true;
    const missing = (begin.waitFor ?? []).filter((e) => (e === 'recording.completed' ? !seen.recording : !seen.transcript));
    if (!missing.length) return false;
    details(`waiting for Zoom's ${missing.join(' and ')} (webhook) until ${at(deadline)}`);
    const before = signals();
    const left = deadline - Date.now();
    if (left <= 0 || !(await condition(() => signals() > before, left))) return false;
  }
}

/**
 * `meeting-followup-<meeting_id>`, started when the booking workflow marks the meeting completed
 * (docs/scheduling.md "After the meeting"): after the end plus a grace period it asks the video
 * provider for the recording and (AI notes on) the transcript, again on a backoff while the
 * provider is still processing, up to MEETING_RECORDING_WAIT_HOURS; then the notes. Cancelled,
 * rescheduled and no-show meetings skip it.
 */
export async function meetingFollowupWorkflow(input: FollowupWorkflowInput): Promise<string> {
  const { meetingId } = input;
  // Zoom's webhooks signal (signal-with-start: possibly before the meeting was marked completed)
  let providerSignals = 0;
  setHandler(videoProviderEventSignal, () => void providerSignals++);
  details('loading the meeting');
  const plan = await acts.planMeetingFollowup(meetingId);
  if (!plan) return 'deleted';
  const wait = plan.endMs + plan.graceMs - Date.now();
  if (wait > 0) {
    details(`waiting until ${at(plan.endMs + plan.graceMs)} (the end plus the grace period)`);
    await sleep(wait);
  }
  const begin = await acts.beginMeetingFollowup(meetingId);
  if (!begin.held) {
    details(`skipped: the meeting is ${begin.status}`);
    return `skipped: ${begin.status}`;
  }
  // Still processing: the activity throws and is retried (1 min, doubling, at most hourly) until the wait limit.
  const provider = proxyActivities<FollowupActivities>({
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: plan.recordingWaitMs,
    retry: { initialInterval: '1 minute', backoffCoefficient: 2, maximumInterval: '1 hour' },
  });
  if (begin.waitFor?.length && (await awaitProviderEvents(meetingId, begin, plan.recordingWaitMs, () => providerSignals))) {
    details('the host deleted the meeting in Zoom: no recording');
    return `notes: ${await notesStep(meetingId)}`;
  }
  if (begin.recording) {
    details('asking the video provider for the recording');
    try {
      await provider.fetchMeetingRecording(meetingId);
    } catch (err) {
      log.warn('recording given up', { meetingId, error: String(err) });
      await acts.meetingRecordingUnavailable(meetingId);
    }
  }
  if (begin.transcript) {
    details('asking the video provider for the transcript');
    try {
      await provider.fetchMeetingTranscript(meetingId);
    } catch (err) {
      log.warn('transcript given up', { meetingId, error: String(err) });
    }
  }
  const result = await notesStep(meetingId);
  details(`ended: notes ${result}`);
  return `notes: ${result}`;
}

/**
 * `meeting-notes-<meeting_id>-<n>`: the notes step alone, after an integrator set the recording
 * (PUT …/recording) or brought a transcript (POST …/transcript).
 */
export async function meetingNotesWorkflow(input: FollowupWorkflowInput): Promise<string> {
  const result = await notesStep(input.meetingId);
  details(`ended: notes ${result}`);
  return result;
}
