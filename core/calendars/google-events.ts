import { createHash } from 'node:crypto';
import { z } from 'zod';
import { googleFetch, GooglePermanentError, GoogleSyncTokenGoneError, GoogleUnavailableError, type GoogleUrls } from './google-api';

/**
 * Writing events to a Google calendar (Calendar API v3: events.insert, events.patch, events.get,
 * events.delete, with `conferenceData` for a Meet link; docs/calendars.md "Google Calendar", pages
 * followed listed there). Every write says `sendUpdates=none` (we send our own confirmation) and
 * `conferenceDataVersion=1` (so a conference is created, and kept on a patch); a read (events.get)
 * takes neither. Failures are
 * google-api.ts's: a 409 (the id is taken) is a GooglePermanentError with status 409.
 */

/** The base32hex alphabet (RFC 4648 §7, lowercase) Google allows in a client-chosen event id (a–v, 0–9). */
const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/**
 * Our event id of a meeting's iCalendar UID: base32hex of its SHA-256 (52 characters), so every
 * attempt (a retried insert after a lost answer) and the meeting that replaces a rescheduled one
 * (same UID) name the same event; a second insert answers 409 instead of making a second event.
 */
export function googleEventIdOf(uid: string): string {
  const bytes = createHash('sha256').update(`fss-event:${uid}`).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** The Meet conference request's id: the same for every attempt at one event (Google makes one conference per request id). */
export const meetRequestIdOf = (eventId: string) => `fss-meet-${eventId}`;

export interface GoogleEventInput {
  id: string;
  summary: string;
  description: string;
  location: string | null;
  start: Date;
  end: Date;
  status: 'confirmed' | 'tentative';
  attendees: Array<{ email: string; displayName?: string }>;
  /** Ask for a Google Meet conference (conferenceData.createRequest, type hangoutsMeet). */
  meet: boolean;
}

// developers.google.com/calendar/api/v3/reference/events (the resource): what a write answers
const writtenEvent = z.object({
  id: z.string().min(1),
  status: z.string().default('confirmed'),
  htmlLink: z.string().default(''),
  iCalUID: z.string().optional(),
  hangoutLink: z.string().optional(),
  conferenceData: z
    .object({
      createRequest: z.object({ status: z.object({ statusCode: z.string() }).optional() }).optional(),
      entryPoints: z.array(z.object({ entryPointType: z.string(), uri: z.string() })).optional(),
    })
    .optional(),
});
export type GoogleWrittenEvent = z.infer<typeof writtenEvent> & { meetLink: string | null; meetPending: boolean };

function written(raw: unknown, what: string): GoogleWrittenEvent {
  const parsed = writtenEvent.safeParse(raw);
  if (!parsed.success) throw new GoogleUnavailableError(`Google ${what}: unexpected answer (${parsed.error.issues[0]?.message})`);
  const e = parsed.data;
  const video = e.conferenceData?.entryPoints?.find((p) => p.entryPointType === 'video')?.uri;
  const code = e.conferenceData?.createRequest?.status?.statusCode;
  return { ...e, meetLink: e.hangoutLink ?? video ?? null, meetPending: code === 'pending' };
}

function bodyOf(e: GoogleEventInput, withId: boolean): Record<string, unknown> {
  return {
    ...(withId ? { id: e.id } : {}),
    summary: e.summary,
    description: e.description,
    location: e.location ?? '',
    start: { dateTime: e.start.toISOString(), timeZone: 'UTC' },
    end: { dateTime: e.end.toISOString(), timeZone: 'UTC' },
    status: e.status,
    attendees: e.attendees,
    // Our own confirmation and reminders go out; guests may not change or invite.
    guestsCanModify: false,
    guestsCanInviteOthers: false,
    ...(e.meet
      ? { conferenceData: { createRequest: { requestId: meetRequestIdOf(e.id), conferenceSolutionKey: { type: 'hangoutsMeet' } } } }
      : {}),
  };
}

const trim = (u: string) => u.replace(/\/+$/, '');

/** The event calls with an access token. */
export function googleEventsApi(urls: GoogleUrls, accessToken: string) {
  const base = trim(urls.apiUrl);
  const events = (calendarId: string) => `${base}/calendars/${encodeURIComponent(calendarId)}/events`;
  const call = async (method: string, url: string, what: string, body?: unknown) => {
    const res = await googleFetch(
      url,
      {
        method,
        headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      what,
    );
    return res.status === 204 ? null : ((await res.json().catch(() => null)) as unknown);
  };
  const WRITE_QUERY = 'sendUpdates=none&conferenceDataVersion=1';
  return {
    /** events.insert with our id; a 409 (the id exists, also when it was deleted) is thrown for the caller to patch. */
    async insert(calendarId: string, e: GoogleEventInput): Promise<GoogleWrittenEvent> {
      return written(await call('POST', `${events(calendarId)}?${WRITE_QUERY}`, 'events.insert', bodyOf(e, true)), 'events.insert');
    },
    /** events.patch of the whole event as it is now (status too: a cancelled event comes back). */
    async patch(calendarId: string, e: GoogleEventInput): Promise<GoogleWrittenEvent> {
      const url = `${events(calendarId)}/${encodeURIComponent(e.id)}?${WRITE_QUERY}`;
      return written(await call('PATCH', url, 'events.patch', bodyOf(e, false)), 'events.patch');
    },
    /** events.get; its reference takes only alwaysIncludeEmail, maxAttendees and timeZone (conferenceDataVersion is a write's). */
    async get(calendarId: string, eventId: string): Promise<GoogleWrittenEvent> {
      const url = `${events(calendarId)}/${encodeURIComponent(eventId)}`;
      return written(await call('GET', url, 'events.get'), 'events.get');
    },
    /** events.delete; an event Google no longer has (404, or 410 already deleted) counts as deleted. */
    async remove(calendarId: string, eventId: string): Promise<'deleted' | 'absent'> {
      try {
        await call('DELETE', `${events(calendarId)}/${encodeURIComponent(eventId)}?sendUpdates=none`, 'events.delete');
        return 'deleted';
      } catch (err) {
        if (err instanceof GoogleSyncTokenGoneError) return 'absent';
        if (err instanceof GooglePermanentError && err.status === 404) return 'absent';
        throw err;
      }
    },
  };
}
export type GoogleEventsApi = ReturnType<typeof googleEventsApi>;
