import {
  condition,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { SA } from '../../temporal/search-attributes';
import type { BookingActivities } from '../../activities/booking';
import type { CalendarWriteActivities } from '../../activities/calendars/write-back';
import {
  meetingCancelledSignal,
  meetingConfirmedSignal,
  type BookingStart,
  type BookingWorkflowInput,
  type MeetingState,
} from './contract';

const stepOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '5 minutes' },
} as const;
const acts = proxyActivities<BookingActivities>(stepOptions);
/** Version 2's first step runs inside the first workflow task (no activity task round trips). */
const local = proxyLocalActivities<Pick<BookingActivities, 'beginBooking'>>(stepOptions);

/**
 * The write-back to the host's calendar (docs/scheduling.md "Host calendars: write-back"): its own
 * options, a long schedule with backoff, so that a calendar server that is down for hours delays
 * the event on the host's calendar and nothing else (a week at most; then the attempt is given up
 * and logged).
 */
export const calendarWriteOptions = {
  startToCloseTimeout: '2 minutes',
  scheduleToCloseTimeout: '7 days',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
} as const;
const calendar = proxyActivities<CalendarWriteActivities>(calendarWriteOptions);

/** Patch id: the booking is written to the host's booking calendar (and updated, moved, removed). */
export const CALENDAR_WRITE_PATCH = 'booking-calendar-write';

/** Patch id: the room is created at the provider first (docs/scheduling.md "Video links"). */
export const VIDEO_ROOM_PATCH = 'booking-video-room';
/** Patch id: pending-request emails, the lapse an hour before the start, the update after a reschedule. */
export const LIFECYCLE_PATCH = 'booking-lifecycle';

/** Patch id: a confirmed request upserts `MeetingStatus` to `scheduled` (docs/operators.md). */
export const MEETING_STATUS_PATCH = 'booking-meeting-status';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, 'Z');
/** Current details (docs/operators.md): not a command, so recorded histories replay unchanged. */
const details = (text: string) => setCurrentDetails(`booking: ${text}`);
const awaitingConfirmation = (state: MeetingState) =>
  details(`waiting for the host's confirmation until ${at(state.lapseMs)}; then cancelled as not confirmed`);
const ended = (result: string) => {
  details(`ended: ${result} at ${at(Date.now())}`);
  return result;
};
/** A request was confirmed: the search attribute follows (a command, hence the patch). */
function markConfirmed(): void {
  details('confirmed by the host');
  if (patched(MEETING_STATUS_PATCH)) upsertSearchAttributes([{ key: SA.MeetingStatus, value: ['scheduled'] }]);
}
const REMINDERS = [
  { kind: 'reminder_24h', before: 24 * HOUR },
  { kind: 'reminder_1h', before: HOUR },
] as const;

/**
 * `booking-<meeting_id>`: waits for the host's confirmation when needed (cancelling with "not
 * confirmed" if the start comes first), sends the confirmation with an .ics invite, the 24 h and
 * 1 h reminders, and marks the meeting completed after its end. Signals only wake it early; every
 * decision re-reads the meeting through an activity.
 */
export async function bookingWorkflow(input: BookingWorkflowInput): Promise<string> {
  let confirmed = false;
  let cancelled = false;
  setHandler(meetingConfirmedSignal, () => void (confirmed = true));
  setHandler(meetingCancelledSignal, () => void (cancelled = true));
  const signals = { confirmed: () => confirmed, cancelled: () => cancelled };
  details('starting: loading the meeting, first email');
  if (input.version === 2) return ended(await bookingV2(input, signals));

  // Providers that need an API call get their room before any email carries the link.
  if (patched(VIDEO_ROOM_PATCH)) await acts.createVideoMeeting(input.meetingId);

  // Calendar writes run alongside the rest (never awaited before an email or a timer); the workflow
  // only waits for them before it ends. Each write puts the meeting as it is at that moment.
  const writes: Array<Promise<void>> = [];
  const writeCalendar = patched(CALENDAR_WRITE_PATCH)
    ? () =>
        void writes.push(
          calendar.writeMeetingToCalendar(input.meetingId).then(
            () => undefined,
            (err: unknown) => log.warn('calendar write-back given up', { meetingId: input.meetingId, error: String(err) }),
          ),
        )
    : () => undefined;
  writeCalendar();
  try {
    return ended(await lifecycle(input, writeCalendar, signals));
  } finally {
    await Promise.all(writes);
  }
}

async function lifecycle(input: BookingWorkflowInput, writeCalendar: () => void, signals: Signals): Promise<string> {
  const { confirmed, cancelled } = signals;
  let state = await acts.loadMeetingState(input.meetingId);
  if (!state) return 'deleted';
  const lifecycle = patched(LIFECYCLE_PATCH);
  if (state.status === 'pending_confirmation') {
    if (lifecycle) {
      await acts.sendMeetingEmail(input.meetingId, 'request_received');
      await acts.sendMeetingEmail(input.meetingId, 'confirm_request');
    }
    // an unconfirmed request lapses an hour before the start (at the start when booked later than that)
    const untilLapse = (lifecycle ? state.lapseMs : state.startMs) - Date.now();
    awaitingConfirmation({ ...state, lapseMs: Date.now() + untilLapse });
    if (untilLapse > 0) await condition(() => confirmed() || cancelled(), untilLapse);
    state = await acts.loadMeetingState(input.meetingId);
    if (!state) return 'deleted';
    if (state.status === 'pending_confirmation') {
      await acts.cancelUnconfirmed(input.meetingId);
      return 'not_confirmed';
    }
    // confirmed: the TENTATIVE event becomes CONFIRMED
    if (state.status === 'scheduled') {
      markConfirmed();
      writeCalendar();
    }
  }
  if (state.status !== 'scheduled') return state.status;
  await acts.sendMeetingEmail(input.meetingId, lifecycle && input.rescheduledFromId ? 'update' : 'confirmation');
  return remindAndComplete(input, state, cancelled);
}

type Signals = { confirmed: () => boolean; cancelled: () => boolean };

/**
 * Code version 2 (docs/scheduling.md "Booking workflow code versions"): no patch markers (every
 * patch above is in), and the first step (video room, state, first email, whether to write to a
 * calendar) is one local activity inside the first workflow task, so a scheduled booking reaches
 * its first reminder timer in one workflow task instead of five with four activity tasks. The
 * calendar write is scheduled only for a host with a booking calendar.
 */
async function bookingV2(input: BookingWorkflowInput, signals: Signals): Promise<string> {
  const writes: Array<Promise<void>> = [];
  const writeCalendar = () =>
    void writes.push(
      calendar.writeMeetingToCalendar(input.meetingId).then(
        () => undefined,
        (err: unknown) => log.warn('calendar write-back given up', { meetingId: input.meetingId, error: String(err) }),
      ),
    );
  try {
    const first: BookingStart = await local.beginBooking(input.meetingId, input.rescheduledFromId ? 'update' : 'confirmation');
    if (first.calendar) writeCalendar();
    return await lifecycleV2(input, first, writeCalendar, signals);
  } finally {
    await Promise.all(writes);
  }
}

async function lifecycleV2(input: BookingWorkflowInput, first: BookingStart, writeCalendar: () => void, signals: Signals): Promise<string> {
  let state = first.state;
  if (!state) return 'deleted';
  if (state.status === 'pending_confirmation') {
    await acts.sendMeetingEmail(input.meetingId, 'request_received');
    await acts.sendMeetingEmail(input.meetingId, 'confirm_request');
    const untilLapse = state.lapseMs - Date.now();
    awaitingConfirmation(state);
    if (untilLapse > 0) await condition(() => signals.confirmed() || signals.cancelled(), untilLapse);
    state = await acts.loadMeetingState(input.meetingId);
    if (!state) return 'deleted';
    if (state.status === 'pending_confirmation') {
      await acts.cancelUnconfirmed(input.meetingId);
      return 'not_confirmed';
    }
    if (state.status !== 'scheduled') return state.status;
    markConfirmed();
    writeCalendar(); // the TENTATIVE event becomes CONFIRMED (the write answers no_calendar when there is none)
    await acts.sendMeetingEmail(input.meetingId, input.rescheduledFromId ? 'update' : 'confirmation');
  } else if (state.status !== 'scheduled') return state.status;
  return remindAndComplete(input, state, signals.cancelled);
}

/** The reminders, then completed after the end (both versions: the same commands in the same order). */
async function remindAndComplete(input: BookingWorkflowInput, state: MeetingState, cancelled: () => boolean): Promise<string> {
  for (const r of REMINDERS) {
    const wait = state.startMs - r.before - Date.now();
    if (wait <= 0) continue; // booked too late for this reminder
    details(`reminder ${r.before / HOUR} h before, due ${at(state.startMs - r.before)} (meeting at ${at(state.startMs)})`);
    if (await condition(() => cancelled(), wait)) return 'cancelled';
    if (!(await acts.sendMeetingEmail(input.meetingId, r.kind))) return 'stopped';
  }
  const untilEnd = state.endMs - Date.now();
  details(`waiting for the end at ${at(state.endMs)}, then marked completed`);
  if (untilEnd > 0 && (await condition(() => cancelled(), untilEnd))) return 'cancelled';
  return (await acts.markCompleted(input.meetingId)) ? 'completed' : 'unchanged';
}
