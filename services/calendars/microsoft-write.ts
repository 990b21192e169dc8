import { graphEventsApi, graphTransactionIdOf, type GraphEventInput, type GraphWrittenEvent } from '../../core/calendars/microsoft-events';
import type { CalendarWriter, WriteInput, WriterDeps } from './calendar-writer';
import { isEventGone, providerWriteFailure } from './provider-write-errors';
import { microsoftUrls, withMicrosoftApi } from './microsoft-tokens';

/**
 * The Microsoft writer (docs/calendars.md "Microsoft 365: writing bookings and Teams"): one event
 * per booking on the destination calendar, with the attendee and guests.
 * - Create: `POST /me/calendars/{id}/events` with a transactionId derived from the meeting's UID
 *   (microsoft-events.ts): a create whose answer was lost is retried with the same transactionId and
 *   Graph answers the event it already made. transactionId is not a lookup (nothing finds an event by
 *   it), so the event id is recorded as soon as the create answers (write-back.ts records it).
 * - A recorded event is patched (`PATCH /me/events/{id}`: a reschedule moves the same event); one
 *   Graph no longer has (404/410: the host deleted it) is created again under a new transactionId
 *   (the old one would name the deleted event).
 * - Delete: `DELETE /me/events/{id}`; 404 and 410 count as done.
 * - Failures: Graph's Retry-After (429, 503) is passed on; any other 4xx is permanent (not retried);
 *   a 401 that survives a forced refresh, or `invalid_grant`, needs the account connected again;
 *   5xx and network failures are retried.
 */

function eventOf(input: WriteInput): GraphEventInput {
  const m = input.meeting;
  return {
    subject: input.summary,
    body: input.description,
    location: m.meeting_link,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    tentative: m.status === 'pending_confirmation',
    attendees: [
      { email: m.attendee_email, name: m.attendee_name },
      ...m.guests.filter((g) => g.toLowerCase() !== m.attendee_email.toLowerCase()).map((email) => ({ email })),
    ],
    teams: input.meet,
  };
}

export const microsoftWriter: CalendarWriter = {
  async write(deps: WriterDeps, input: WriteInput) {
    const { cal } = input;
    const event = eventOf(input);
    const recorded = input.here?.provider_event_id ?? null;
    let ev: GraphWrittenEvent;
    try {
      ev = await withMicrosoftApi(deps, {
        connectionId: cal.connection_id,
        run: async (_graph, token) => {
          const api = graphEventsApi(microsoftUrls(deps.config), token);
          if (!recorded) return api.create(cal.url, event, graphTransactionIdOf(input.uid));
          try {
            return await api.update(recorded, event);
          } catch (err) {
            if (!isEventGone(err)) throw err;
            return api.create(cal.url, event, graphTransactionIdOf(input.uid, input.meeting.ical_sequence + 1));
          }
        },
      });
    } catch (err) {
      throw providerWriteFailure('Microsoft', err, 'event create/update');
    }
    return {
      href: ev.id,
      etag: null,
      htmlUrl: ev.webLink || null,
      providerEventId: ev.id,
      providerIcalUid: ev.iCalUId ?? null,
      // No joinUrl with Teams asked for: the account cannot make Teams meetings (conference-link.ts).
      meetLink: event.teams ? ev.joinUrl : null,
    };
  },
  async remove(deps, { record }) {
    try {
      await withMicrosoftApi(deps, {
        connectionId: record.connection_id,
        run: (_graph, token) => graphEventsApi(microsoftUrls(deps.config), token).remove(record.provider_event_id ?? record.href),
      });
    } catch (err) {
      throw providerWriteFailure('Microsoft', err, 'event delete');
    }
  },
};
