import type { MeetingCalendarWritesRow } from '../../db/tables';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';

/** What a calendar writer (calendar-writers.ts) is given and answers. */

/** The kinds of connection whose calendars may receive bookings (an iCal feed never does). */
export type WritableKind = 'caldav' | 'google' | 'microsoft';

export type WriteRecord = Omit<MeetingCalendarWritesRow, 'created_at' | 'updated_at'>;

/** A calendar that receives bookings. */
export interface Destination {
  id: string;
  connection_id: string;
  team_id: string;
  /** CalDAV: the collection URL; Google, Microsoft: the calendar id. */
  url: string;
  display_name: string;
  kind: WritableKind;
}

export interface WriteInput {
  cal: Destination;
  meeting: MeetingRow;
  uid: string;
  summary: string;
  description: string;
  /** Our earlier write of this UID on this calendar (this meeting's, or the one it replaced). */
  here: WriteRecord | undefined;
  /** Ask the provider for a video conference (Google Meet, Microsoft Teams) and answer its link. */
  meet: boolean;
}

export interface WriteResult {
  href: string;
  etag: string | null;
  htmlUrl: string | null;
  providerEventId: string | null;
  providerIcalUid: string | null;
  /** The conference link the provider made (Google Meet, Teams), when asked for. */
  meetLink: string | null;
}

export type WriterDeps = Pick<ServiceDeps, 'db' | 'config'>;

export interface CalendarWriter {
  write(deps: WriterDeps, input: WriteInput): Promise<WriteResult>;
  /** Delete what a record says was written; already gone counts as done. */
  remove(deps: WriterDeps, input: { record: WriteRecord; calendarUrl: string }): Promise<void>;
}
