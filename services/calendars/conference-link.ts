import { logger } from '../../core/logger';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { CalendarWriteError } from './caldav-write';
import { bookingCalendarOf, writeMeetingToCalendar } from './write-back';

/**
 * The Google Meet and Microsoft Teams adapters' step (docs/calendars.md "Google Meet", "Microsoft 365:
 * writing bookings and Teams"), run by the booking workflow's room step before any email: the booking's
 * event is written to the host's destination calendar at that provider asking for a conference
 * (Google: `conferenceData.createRequest`, hangoutsMeet, `conferenceDataVersion=1`; Microsoft:
 * `isOnlineMeeting: true, onlineMeetingProvider: 'teamsForBusiness'`), and the link the provider answers
 * (Google's `hangoutLink`, Graph's `onlineMeeting.joinUrl`) becomes the meeting's link (write-back.ts
 * stores it). Idempotent: the event id (Google) or transactionId (Graph) comes from the meeting's UID,
 * and a reschedule patches the same event, whose conference stays.
 * No link can be made, and the booking goes on without one (its emails say so; the host sees why in the log):
 * - without a destination calendar at that provider (event types refuse the adapter then:
 *   event-type-calendars.ts);
 * - when the account cannot make one (a personal Microsoft account without Teams: Graph writes the
 *   event without `onlineMeeting`);
 * - when the provider refuses the event for good (a permanent 4xx).
 * Anything else is thrown for the activity to retry.
 */
export type ConferenceOutcome = 'linked' | 'no_provider_calendar' | 'no_conference' | 'refused' | 'inactive';

const PROVIDERS = {
  google: { conference: 'Google Meet', provider: 'Google' },
  microsoft: { conference: 'Microsoft Teams', provider: 'Microsoft' },
} as const;

export async function ensureConferenceLink(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meeting: Pick<MeetingRow, 'id' | 'host_user_id' | 'event_type_id'>; kind: keyof typeof PROVIDERS },
): Promise<ConferenceOutcome> {
  const { meeting: m, kind } = input;
  const names = PROVIDERS[kind];
  const cal = await bookingCalendarOf(deps.db, m);
  if (!cal || cal.kind !== kind) {
    logger.warn(
      { meetingId: m.id, hostUserId: m.host_user_id },
      `${names.conference}: the host has no ${names.provider} destination calendar; the meeting has no link`,
    );
    return 'no_provider_calendar';
  }
  try {
    const outcome = await writeMeetingToCalendar(deps, { meetingId: m.id });
    if (outcome !== 'written') return 'inactive';
  } catch (err) {
    if (!(err instanceof CalendarWriteError) || !err.kind.permanent) throw err;
    logger.warn({ meetingId: m.id, error: err.message }, `${names.provider} refused the event with its ${names.conference} link; no link`);
    return 'refused';
  }
  const after = await deps.db('meetings').where({ id: m.id }).first('meeting_link');
  if (after?.meeting_link) return 'linked';
  logger.warn(
    { meetingId: m.id, connectionId: cal.connection_id },
    `${names.conference}: the account could not make one (a personal Microsoft account has no Teams); the event was written without it`,
  );
  return 'no_conference';
}
