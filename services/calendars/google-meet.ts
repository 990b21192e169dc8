import { logger } from '../../core/logger';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { CalendarWriteError } from './caldav-write';
import { bookingCalendarOf, writeMeetingToCalendar } from './write-back';

/**
 * The Google Meet adapter's step (docs/calendars.md "Google Meet"), run by the booking workflow's
 * room step before any email: the booking's event is written to the host's Google destination
 * calendar with `conferenceData.createRequest` (hangoutsMeet, a request id derived from the event
 * id, `conferenceDataVersion=1`), and the link Google answers (`hangoutLink`, else the video entry
 * point) becomes the meeting's link. Idempotent (the event id is derived from the meeting's UID; a
 * reschedule patches the same event, whose conference stays).
 * Without a Google destination calendar there is no Meet link: the booking goes on without one
 * (its emails say no link, the host sees why in the log); event types refuse the adapter when one
 * of their hosts has none (event-types.ts). A permanent refusal by Google does the same; anything
 * else is thrown for the activity to retry.
 */
export type MeetOutcome = 'linked' | 'no_google_calendar' | 'refused' | 'inactive';

export async function ensureMeetLink(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meeting: Pick<MeetingRow, 'id' | 'host_user_id' | 'event_type_id'> },
): Promise<MeetOutcome> {
  const m = input.meeting;
  const cal = await bookingCalendarOf(deps.db, m);
  if (!cal || cal.kind !== 'google') {
    logger.warn(
      { meetingId: m.id, hostUserId: m.host_user_id },
      'Google Meet: the host has no Google destination calendar; the meeting has no link',
    );
    return 'no_google_calendar';
  }
  try {
    const outcome = await writeMeetingToCalendar(deps, { meetingId: m.id });
    if (outcome !== 'written') return 'inactive';
  } catch (err) {
    if (!(err instanceof CalendarWriteError) || !err.kind.permanent) throw err;
    logger.warn({ meetingId: m.id, error: err.message }, 'Google refused the event with its Meet link; the booking has no link');
    return 'refused';
  }
  const after = await deps.db('meetings').where({ id: m.id }).first('meeting_link');
  return after?.meeting_link ? 'linked' : 'refused';
}
