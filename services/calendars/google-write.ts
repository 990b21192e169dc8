import {
  GoogleGrantError,
  GooglePermanentError,
  GoogleRateLimitedError,
  GoogleSyncTokenGoneError,
  GoogleUnauthorizedError,
  GoogleUnavailableError,
} from '../../core/calendars/google-api';
import { googleEventIdOf, googleEventsApi, type GoogleEventInput, type GoogleWrittenEvent } from '../../core/calendars/google-events';
import type { CalendarWriter, WriteInput, WriterDeps } from './calendar-writer';
import { CalendarWriteError } from './caldav-write';
import { googleUrls, withGoogleToken } from './google-tokens';

/**
 * The Google writer (docs/calendars.md "Google Calendar", "Writing bookings"): one event per
 * booking on the destination calendar, with the attendee and guests, `sendUpdates=none`.
 * - The event id is ours, derived from the meeting's UID (google-events.ts `googleEventIdOf`): an
 *   insert whose answer was lost (a timeout, a dropped connection) is retried with the same id and
 *   Google answers 409, which means "already there": the event is then patched to the meeting as it
 *   is now. A cancelled event with that id (Google keeps deleted events) comes back the same way.
 * - A recorded event is patched (a reschedule moves the same event); one Google no longer has
 *   (404/410) is inserted again.
 * - Delete: 404 and 410 count as done.
 * - Failures: Google's Retry-After (429, rate-limit 403) is passed on; any other 4xx is permanent
 *   (not retried); a 401 that survives a forced refresh, or `invalid_grant`, needs the account
 *   connected again; 5xx and network failures are retried.
 */

function failure(err: unknown, what: string): unknown {
  if (err instanceof GoogleRateLimitedError) return new CalendarWriteError(err.message, 429, { retryAfterMs: err.retryAfterMs });
  if (err instanceof GoogleGrantError || err instanceof GoogleUnauthorizedError)
    return new CalendarWriteError(`Google no longer accepts the connection (${what})`, 401, { needsReauth: true, permanent: true });
  if (err instanceof GooglePermanentError) return new CalendarWriteError(explain(err.status, err.message), err.status, { permanent: true });
  if (err instanceof GoogleSyncTokenGoneError) return new CalendarWriteError(err.message, 410, { permanent: true });
  if (err instanceof GoogleUnavailableError) return new CalendarWriteError(err.message, null);
  return err;
}

function explain(status: number, message: string): string {
  if (status === 403) return `Google does not allow writing to this calendar (HTTP 403); choose another booking calendar`;
  if (status === 404) return `the calendar no longer exists at Google (HTTP 404); choose another booking calendar`;
  return message;
}

const isGone = (err: unknown) => err instanceof GoogleSyncTokenGoneError || (err instanceof GooglePermanentError && err.status === 404);
const isTaken = (err: unknown) => err instanceof GooglePermanentError && err.status === 409;

function eventOf(input: WriteInput, id: string): GoogleEventInput {
  const m = input.meeting;
  return {
    id,
    summary: input.summary,
    description: input.description,
    location: m.meeting_link,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    status: m.status === 'pending_confirmation' ? 'tentative' : 'confirmed',
    attendees: [
      { email: m.attendee_email, displayName: m.attendee_name },
      ...m.guests.filter((g) => g.toLowerCase() !== m.attendee_email.toLowerCase()).map((email) => ({ email })),
    ],
    meet: input.meet,
  };
}

export const googleWriter: CalendarWriter = {
  async write(deps: WriterDeps, input: WriteInput) {
    const { cal } = input;
    const id = input.here?.provider_event_id ?? googleEventIdOf(input.uid);
    const event = eventOf(input, id);
    let ev: GoogleWrittenEvent;
    try {
      ev = await withGoogleToken(deps, {
        connectionId: cal.connection_id,
        run: async (token) => {
          const api = googleEventsApi(googleUrls(deps.config), token);
          const insertOrPatch = async () => {
            try {
              return await api.insert(cal.url, event);
            } catch (err) {
              if (isTaken(err)) return api.patch(cal.url, event); // our own event: its insert answer was lost, or it was deleted
              throw err;
            }
          };
          let out: GoogleWrittenEvent;
          if (input.here?.provider_event_id) {
            try {
              out = await api.patch(cal.url, event);
            } catch (err) {
              if (!isGone(err)) throw err;
              out = await insertOrPatch();
            }
          } else out = await insertOrPatch();
          // Google may answer a conference as `pending`: read it again once, else the activity retries.
          if (event.meet && out.meetPending) out = await api.get(cal.url, out.id);
          return out;
        },
      });
    } catch (err) {
      throw failure(err, 'events.insert/patch');
    }
    if (event.meet && !ev.meetLink)
      throw new CalendarWriteError(`Google has not made the Meet link of event ${ev.id} yet; trying again`, null);
    return {
      href: ev.id,
      etag: null,
      htmlUrl: ev.htmlLink || null,
      providerEventId: ev.id,
      providerIcalUid: ev.iCalUID ?? null,
      meetLink: event.meet ? ev.meetLink : null,
    };
  },
  async remove(deps, { record, calendarUrl }) {
    try {
      await withGoogleToken(deps, {
        connectionId: record.connection_id,
        run: (token) => googleEventsApi(googleUrls(deps.config), token).remove(calendarUrl, record.provider_event_id ?? record.href),
      });
    } catch (err) {
      throw failure(err, 'events.delete');
    }
  },
};
