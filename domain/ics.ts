import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

/** Pure iCalendar builders (no I/O): invites, cancellations and host feeds. */

export interface IcsMeeting {
  /** Stable UID: the same for the invite, its updates and its CANCEL. */
  uid: string;
  sequence: number;
  summary: string;
  description?: string | null;
  start: Date;
  end: Date;
  location?: string | null;
  url?: string | null;
  organizer: { name: string; email: string };
  attendees: Array<{ name?: string; email: string }>;
  status: 'confirmed' | 'tentative' | 'cancelled';
}

const PROD_ID = { company: 'forms-scheduling-sequences', product: 'scheduling', language: 'EN' };

export const meetingUid = (meetingId: string) => `meeting-${meetingId}@forms-scheduling-sequences`;

/** The UID a meeting's invites carry: its own, or the one a reschedule carried over from the first meeting. */
export const icalUidOf = (m: { id: string; ical_uid: string | null }) => m.ical_uid ?? meetingUid(m.id);

const STATUS = { confirmed: ICalEventStatus.CONFIRMED, tentative: ICalEventStatus.TENTATIVE, cancelled: ICalEventStatus.CANCELLED };

function addEvent(cal: ReturnType<typeof ical>, m: IcsMeeting): void {
  cal.createEvent({
    id: m.uid,
    sequence: m.sequence,
    start: m.start,
    end: m.end,
    stamp: new Date(),
    summary: m.summary,
    description: m.description ?? undefined,
    location: m.location ?? undefined,
    url: m.url ?? undefined,
    status: STATUS[m.status],
    organizer: { name: m.organizer.name, email: m.organizer.email },
    attendees: m.attendees.map((a) => ({
      name: a.name,
      email: a.email,
      rsvp: m.status !== 'cancelled',
      role: ICalAttendeeRole.REQ,
      status: m.status === 'cancelled' ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.NEEDSACTION,
    })),
  });
}

/** METHOD:REQUEST invite for a confirmation email. */
export function inviteIcs(m: IcsMeeting): string {
  const cal = ical({ prodId: PROD_ID, method: ICalCalendarMethod.REQUEST });
  addEvent(cal, m);
  return cal.toString();
}

/** METHOD:CANCEL for a cancellation email (same UID, higher SEQUENCE). */
export function cancelIcs(m: IcsMeeting): string {
  const cal = ical({ prodId: PROD_ID, method: ICalCalendarMethod.CANCEL });
  addEvent(cal, { ...m, status: 'cancelled' });
  return cal.toString();
}

/** A host's subscription feed (METHOD:PUBLISH). */
export function feedIcs(name: string, meetings: IcsMeeting[]): string {
  const cal = ical({ prodId: PROD_ID, method: ICalCalendarMethod.PUBLISH, name, ttl: 15 * 60 });
  for (const m of meetings) addEvent(cal, m);
  return cal.toString();
}

/** A booking as it is written to the host's own calendar (CalDAV write-back). */
export type CalendarObjectEvent = Omit<IcsMeeting, 'organizer' | 'attendees' | 'status'> & {
  /** pending_confirmation is written TENTATIVE, scheduled CONFIRMED. */
  status: 'confirmed' | 'tentative';
};

/**
 * The calendar object resource PUT on the host's CalDAV calendar: one VEVENT, no METHOD (RFC 4791
 * 4.1 forbids it in a stored object), and no ORGANIZER or ATTENDEE: a server that does implicit
 * scheduling (RFC 6638: iCloud, Google, Nextcloud…) would otherwise send its own invitations on top
 * of ours. Who booked is in the DESCRIPTION instead.
 */
export function calendarObjectIcs(e: CalendarObjectEvent): string {
  const cal = ical({ prodId: PROD_ID });
  cal.createEvent({
    id: e.uid,
    sequence: e.sequence,
    start: e.start,
    end: e.end,
    stamp: new Date(),
    summary: e.summary,
    description: e.description ?? undefined,
    location: e.location ?? undefined,
    url: e.url ?? undefined,
    status: STATUS[e.status],
  });
  return cal.toString();
}
