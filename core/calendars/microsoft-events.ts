import { createHash } from 'node:crypto';
import { z } from 'zod';
import { graphRequest, type MicrosoftUrls } from './microsoft-api';
import { CalendarPermanentError, CalendarSyncStateGoneError, CalendarUnavailableError } from './provider-http';

/**
 * Writing events to a Microsoft 365 / Outlook calendar through Microsoft Graph v1.0
 * (docs/calendars.md "Microsoft 365: writing bookings and Teams", pages followed listed there):
 * - create: `POST /me/calendars/{id}/events` with a `transactionId` derived from the meeting's UID:
 *   Graph answers a repeated create with the same transactionId with the event it already made, so
 *   a create whose answer was lost is retried without making a second event;
 * - update: `PATCH /me/events/{id}` (a Teams event's body is left as it is: it holds the meeting);
 *   delete: `DELETE /me/events/{id}` (404/410: already gone);
 * - times are sent as `{dateTime, timeZone: 'UTC'}`; answers are asked in UTC
 *   (`Prefer: outlook.timezone="UTC"`);
 * - a Teams meeting: `isOnlineMeeting: true, onlineMeetingProvider: 'teamsForBusiness'`; the link is
 *   the answer's `onlineMeeting.joinUrl` (absent when the account cannot make one: a personal account).
 * Failures are microsoft-api.ts's (provider-http.ts classes).
 */

/** Graph's transactionId of a meeting's UID (and, for a re-create after the event was deleted, a generation). */
export function graphTransactionIdOf(uid: string, generation = 0): string {
  const h = createHash('sha256')
    .update(`fss-event:${uid}${generation ? `:${generation}` : ''}`)
    .digest('hex');
  // A GUID-shaped string (Graph accepts any string; Outlook clients use GUIDs).
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export interface GraphEventInput {
  subject: string;
  body: string;
  location: string | null;
  start: Date;
  end: Date;
  /** Shown as tentative while the booking waits for confirmation. */
  tentative: boolean;
  attendees: Array<{ email: string; name?: string }>;
  /** Ask for a Teams meeting (isOnlineMeeting, onlineMeetingProvider teamsForBusiness). */
  teams: boolean;
}

// learn.microsoft.com/graph/api/resources/event: what a write answers
const writtenEvent = z.object({
  id: z.string().min(1),
  webLink: z.string().nullish(),
  iCalUId: z.string().nullish(),
  isOnlineMeeting: z.boolean().nullish(),
  onlineMeeting: z.object({ joinUrl: z.string().nullish() }).nullish(),
  start: z.object({ dateTime: z.string(), timeZone: z.string().nullish() }).nullish(),
});
export type GraphWrittenEvent = z.infer<typeof writtenEvent> & { joinUrl: string | null };

function written(raw: unknown, what: string): GraphWrittenEvent {
  const parsed = writtenEvent.safeParse(raw);
  if (!parsed.success) throw new CalendarUnavailableError(`Microsoft ${what}: unexpected answer (${parsed.error.issues[0]?.message})`);
  return { ...parsed.data, joinUrl: parsed.data.onlineMeeting?.joinUrl || null };
}

const utc = (d: Date) => ({ dateTime: d.toISOString().replace(/Z$/, ''), timeZone: 'UTC' });

function bodyOf(e: GraphEventInput): Record<string, unknown> {
  return {
    subject: e.subject,
    body: { contentType: 'text', content: e.body },
    start: utc(e.start),
    end: utc(e.end),
    location: { displayName: e.location ?? '' },
    showAs: e.tentative ? 'tentative' : 'busy',
    attendees: e.attendees.map((a) => ({ emailAddress: { address: a.email, ...(a.name ? { name: a.name } : {}) }, type: 'required' })),
    // Our booking decides the time: attendees may not propose another one; no reply is asked for.
    allowNewTimeProposals: false,
    responseRequested: false,
    ...(e.teams ? { isOnlineMeeting: true, onlineMeetingProvider: 'teamsForBusiness' } : {}),
  };
}

const READ = { prefer: 'outlook.timezone="UTC"' };

/** The event calls with an access token. */
export function graphEventsApi(urls: MicrosoftUrls, accessToken: string) {
  const call = async (method: string, path: string, what: string, body?: unknown) => {
    const res = await graphRequest(urls, accessToken, { method, path, what, body, headers: READ });
    return res.status === 204 ? null : ((await res.json().catch(() => null)) as unknown);
  };
  const event = (id: string) => `/me/events/${encodeURIComponent(id)}`;
  return {
    /** POST /me/calendars/{id}/events with a transactionId (a repeat answers the event already made). */
    async create(calendarId: string, e: GraphEventInput, transactionId: string): Promise<GraphWrittenEvent> {
      const path = `/me/calendars/${encodeURIComponent(calendarId)}/events`;
      return written(await call('POST', path, 'event.create', { ...bodyOf(e), transactionId }), 'event.create');
    },
    /**
     * PATCH /me/events/{id} with the event as it is now. A Teams event keeps the body it has: Graph
     * keeps the online meeting's blob in the body, and a body replaced without it disables the
     * meeting (learn.microsoft.com/graph/api/event-update, "body property and online meetings").
     */
    async update(eventId: string, e: GraphEventInput): Promise<GraphWrittenEvent> {
      const { body: _body, ...withoutBody } = bodyOf(e);
      return written(await call('PATCH', event(eventId), 'event.update', e.teams ? withoutBody : bodyOf(e)), 'event.update');
    },
    async get(eventId: string): Promise<GraphWrittenEvent> {
      return written(await call('GET', event(eventId), 'event.get'), 'event.get');
    },
    /** DELETE /me/events/{id}; one Graph no longer has (404, 410) counts as deleted. */
    async remove(eventId: string): Promise<'deleted' | 'absent'> {
      try {
        await call('DELETE', event(eventId), 'event.delete');
        return 'deleted';
      } catch (err) {
        if (err instanceof CalendarSyncStateGoneError) return 'absent';
        if (err instanceof CalendarPermanentError && err.status === 404) return 'absent';
        throw err;
      }
    },
  };
}
export type GraphEventsApi = ReturnType<typeof graphEventsApi>;
