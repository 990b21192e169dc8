import { eventBusy, type EventTimes } from './event-busy';

/**
 * Busy time of one Google Calendar event (docs/calendars.md "Google Calendar"): the rules are the
 * providers' common ones (event-busy.ts); what is kept of an event is below.
 */
export type GoogleEventTimes = EventTimes;
export const googleEventBusy = eventBusy;

/** What is stored of an event (no summary, description, location or attendee addresses). */
export function minimizeGoogleEvent(e: GoogleEventTimes): GoogleEventTimes {
  const self = (e.attendees ?? []).filter((a) => a.self).map((a) => ({ self: true, responseStatus: a.responseStatus }));
  return {
    id: e.id,
    status: e.status,
    iCalUID: e.iCalUID,
    transparency: e.transparency,
    eventType: e.eventType,
    start: e.start && { date: e.start.date, dateTime: e.start.dateTime },
    end: e.end && { date: e.end.date, dateTime: e.end.dateTime },
    ...(self.length ? { attendees: self } : {}),
  };
}
