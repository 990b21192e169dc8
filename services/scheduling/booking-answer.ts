import { bookingCalendarOf, eventSummaryOf } from '../calendars/write-back';
import type { NoticeWaitsPort, ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { book, type BookingRequest } from './booking';
import { meetingEventUrl } from './feed';

/** What the booking answer reaches besides the services' deps: the API's waits on CALENDAR_WRITTEN_CHANNEL. */
export type BookingAnswerDeps = ServiceDeps & { calendarWrites?: NoticeWaitsPort };

/** The calendar event a booking answers with (variant A's `event`, variant B's `calendar_link`). */
export interface AnsweredEvent {
  id: string;
  summary: string;
  start_time: Date;
  end_time: Date;
  htmlLink: string;
}

interface ProviderEvent {
  provider_event_id: string;
  html_url: string;
}

/**
 * Book (booking.ts), then answer with the provider's event (docs/calendars.md "Writing bookings",
 * "The booking's answer"): when the meeting's destination calendar is a Google or Microsoft one and
 * BOOKING_EVENT_WAIT_MS > 0, the answer waits for the worker's write of it (one notification on
 * CALENDAR_WRITTEN_CHANNEL, or the deadline) and gives the provider's event id and its `htmlLink`
 * (Google) or `webLink` (Microsoft), and the meeting as it is then (a Meet or Teams link once
 * written). Past the deadline (the provider slow, down, or the connection needing a new consent),
 * and for a CalDAV calendar or none, it answers at once with our own event and the meeting's own
 * .ics link; the write goes on in the worker either way. The API makes no call to the provider.
 */
export async function bookAndAnswer(deps: BookingAnswerDeps, req: BookingRequest): Promise<{ meeting: MeetingRow; event: AnsweredEvent }> {
  const booked = await book(deps, req);
  const { meeting } = booked;
  const written = await providerEventOf(deps, meeting);
  if (!written) return { meeting, event: { ...booked.event, htmlLink: await meetingEventUrl(deps, { meetingId: meeting.id }) } };
  const now: MeetingRow = (await deps.db('meetings').where({ id: meeting.id }).first()) ?? meeting;
  return {
    meeting: now,
    event: {
      id: written.provider_event_id,
      summary: eventSummaryOf(now),
      start_time: now.start_time,
      end_time: now.end_time,
      htmlLink: written.html_url,
    },
  };
}

/** The provider's event of a just-booked meeting, when its calendar is Google or Microsoft and the write comes in time. */
async function providerEventOf(deps: BookingAnswerDeps, meeting: MeetingRow): Promise<ProviderEvent | undefined> {
  const ms = deps.config.BOOKING_EVENT_WAIT_MS;
  if (!deps.calendarWrites || ms <= 0) return undefined;
  const cal = await bookingCalendarOf(deps.db, meeting);
  if (!cal || (cal.kind !== 'google' && cal.kind !== 'microsoft')) return undefined;
  const read = async () =>
    (await deps
      .db('meeting_calendar_writes')
      .where({ meeting_id: meeting.id, calendar_id: cal.id, state: 'written' })
      .whereNotNull('provider_event_id')
      .whereNotNull('html_url')
      .first('provider_event_id', 'html_url')) as ProviderEvent | undefined;
  return deps.calendarWrites.until(meeting.id, ms, read);
}
