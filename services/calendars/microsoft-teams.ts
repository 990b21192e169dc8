import { logger } from '../../core/logger';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { CalendarWriteError } from './caldav-write';
import { bookingCalendarOf, writeMeetingToCalendar } from './write-back';

/**
 * The Microsoft Teams adapter's step (docs/calendars.md "Microsoft 365: writing bookings and Teams"),
 * run by the booking workflow's room step before any email, like Google Meet (google-meet.ts): the
 * booking's event is written to the host's Microsoft destination calendar with
 * `isOnlineMeeting: true, onlineMeetingProvider: 'teamsForBusiness'`, and the answer's
 * `onlineMeeting.joinUrl` becomes the meeting's link. Idempotent (transactionId from the UID, then
 * the recorded event id; a reschedule patches the same event, whose meeting stays).
 * No link can be made, and the booking goes on without one (its emails say so; the host sees why in
 * the log and on the connection's calendar event, which has no Teams meeting):
 * - without a Microsoft destination calendar (event types refuse the adapter then: event-type-calendars.ts);
 * - when the account cannot make Teams meetings (a personal Microsoft account: Graph creates the
 *   event and answers it without `onlineMeeting`);
 * - when Graph refuses the event for good (a permanent 4xx).
 * Anything else is thrown for the activity to retry.
 */
export type TeamsOutcome = 'linked' | 'no_microsoft_calendar' | 'no_teams' | 'refused' | 'inactive';

export async function ensureTeamsLink(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meeting: Pick<MeetingRow, 'id' | 'host_user_id' | 'event_type_id'> },
): Promise<TeamsOutcome> {
  const m = input.meeting;
  const cal = await bookingCalendarOf(deps.db, m);
  if (!cal || cal.kind !== 'microsoft') {
    logger.warn(
      { meetingId: m.id, hostUserId: m.host_user_id },
      'Microsoft Teams: the host has no Microsoft destination calendar; the meeting has no link',
    );
    return 'no_microsoft_calendar';
  }
  try {
    const outcome = await writeMeetingToCalendar(deps, { meetingId: m.id });
    if (outcome !== 'written') return 'inactive';
  } catch (err) {
    if (!(err instanceof CalendarWriteError) || !err.kind.permanent) throw err;
    logger.warn({ meetingId: m.id, error: err.message }, 'Microsoft refused the event with its Teams meeting; the booking has no link');
    return 'refused';
  }
  const after = await deps.db('meetings').where({ id: m.id }).first('meeting_link');
  if (after?.meeting_link) return 'linked';
  logger.warn(
    { meetingId: m.id, connectionId: cal.connection_id },
    'Microsoft Teams: the account cannot make Teams meetings (a personal Microsoft account?); the event was written without one',
  );
  return 'no_teams';
}
