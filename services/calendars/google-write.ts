import { GooglePermanentError } from '../../core/calendars/google-api';
import {
  googleEventIdOf,
  googleEventsApi,
  type GoogleEventInput,
  type GoogleEventsApi,
  type GoogleWrittenEvent,
} from '../../core/calendars/google-events';
import type { CalendarWriter, WriteInput, WriterDeps } from './calendar-writer';
import { CalendarWriteError } from './caldav-write';
import { isEventGone, providerWriteFailure } from './provider-write-errors';
import { googleUrls, withGoogleToken } from './google-tokens';

/**
 * The Google writer (docs/calendars.md "Google Calendar", "Writing bookings"): one event per
 * booking on the destination calendar, with the attendee and guests, `sendUpdates=none`.
 * - The event id is ours, derived from the meeting's UID (google-events.ts `googleEventIdOf`): an
 *   insert whose answer was lost (a timeout, a dropped connection) is retried with the same id and
 *   Google answers 409, which means "already there": the event is then patched to the meeting as it
 *   is now.
 * - A recorded event is patched (a reschedule moves the same event).
 * - An event the host deleted at Google keeps its id there: an insert with it answers 409 and a patch
 *   403 (or 404/410). Its id is then dead, and the event is made again under the next id of the UID
 *   (`eventIdsFrom`: ours plus a digit; at most 4), which is as deterministic as the first.
 * - Delete: 404 and 410 count as done.
 * - Failures: Google's Retry-After (429, rate-limit 403) is passed on; any other 4xx is permanent
 *   (not retried); a 401 that survives a forced refresh, or `invalid_grant`, needs the account
 *   connected again; 5xx and network failures are retried.
 */

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

/** An event id that cannot be used any more: the host deleted the event at Google (a patch of it is refused). */
class DeadId extends Error {}

/** How many ids a booking's event may go through (each after the host deleted the previous one at Google). */
const GENERATIONS = 4;
/** The ids of a booking's event, in order: ours (`googleEventIdOf` of the UID), then one per event the host deleted (+ a digit). */
export const eventIdsFrom = (base: string) => [base, ...Array.from({ length: GENERATIONS - 1 }, (_, i) => `${base}${i + 1}`)];

async function writeEvent(api: GoogleEventsApi, calendarId: string, event: GoogleEventInput, known: string | null) {
  /** A patch Google refuses or no longer finds: is the event deleted (its id dead), or is the refusal real? */
  const patchOrDead = async (e: GoogleEventInput) => {
    try {
      return await api.patch(calendarId, e);
    } catch (err) {
      if (isEventGone(err)) throw new DeadId(e.id);
      if (!(err instanceof GooglePermanentError && err.status === 403)) throw err;
      const now = await api.get(calendarId, e.id).catch((getErr: unknown) => {
        if (isEventGone(getErr)) return null;
        throw getErr;
      });
      if (!now || now.status === 'cancelled') throw new DeadId(e.id);
      throw err;
    }
  };
  const candidates = eventIdsFrom(event.id);
  let from = 0;
  if (known) {
    try {
      return await patchOrDead({ ...event, id: known });
    } catch (err) {
      if (!(err instanceof DeadId)) throw err;
      from = candidates.indexOf(known) + 1;
    }
  }
  for (const id of candidates.slice(from)) {
    const e = { ...event, id };
    try {
      return await api.insert(calendarId, e);
    } catch (err) {
      if (!isTaken(err)) throw err;
    }
    // Taken: our own event (its insert answer was lost), or one the host deleted (then the next id).
    try {
      return await patchOrDead(e);
    } catch (err) {
      if (!(err instanceof DeadId)) throw err;
    }
  }
  throw new GooglePermanentError(409, `Google: every event id of this booking was deleted at Google (${GENERATIONS})`);
}

export const googleWriter: CalendarWriter = {
  async write(deps: WriterDeps, input: WriteInput) {
    const { cal } = input;
    const event = eventOf(input, googleEventIdOf(input.uid));
    let ev: GoogleWrittenEvent;
    try {
      ev = await withGoogleToken(deps, {
        connectionId: cal.connection_id,
        run: async (token) => {
          const api = googleEventsApi(googleUrls(deps.config), token);
          let out = await writeEvent(api, cal.url, event, input.here?.provider_event_id ?? null);
          // Google may answer a conference as `pending`: read it again once, else the activity retries.
          if (event.meet && out.meetPending) out = await api.get(cal.url, out.id);
          return out;
        },
      });
    } catch (err) {
      throw providerWriteFailure('Google', err, 'events.insert/patch');
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
      throw providerWriteFailure('Google', err, 'events.delete');
    }
  },
};
