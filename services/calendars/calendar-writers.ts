import { webhookUrlPolicy } from '../../core/config';
import type { MeetingCalendarWritesRow } from '../../db/tables';
import { calendarObjectIcs } from '../../domain/ics';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { CalendarWriteError, deleteCalendarObject, objectUrl, putCalendarObject } from './caldav-write';
import { googleWriter } from './google-write';
import { loadCredentials } from './secrets';

/**
 * One writer per kind of connection that can receive bookings (docs/scheduling.md "Host calendars:
 * write-back"): services/calendars/write-back.ts decides what to write where and records it; a
 * writer only talks to its provider. A writer throws CalendarWriteError (a human sentence, and
 * whether to retry). Another provider plugs in by adding its kind here.
 */

export type WriteRecord = Omit<MeetingCalendarWritesRow, 'created_at' | 'updated_at'>;

/** A calendar that receives bookings. */
export interface Destination {
  id: string;
  connection_id: string;
  team_id: string;
  /** CalDAV: the collection URL; Google: the calendar id. */
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
  /** Ask the provider for a video conference (Google Meet) and answer its link. */
  meet: boolean;
}

export interface WriteResult {
  href: string;
  etag: string | null;
  htmlUrl: string | null;
  providerEventId: string | null;
  providerIcalUid: string | null;
  /** The conference link the provider made (Google Meet), when asked for. */
  meetLink: string | null;
}

export type WriterDeps = Pick<ServiceDeps, 'db' | 'config'>;

export interface CalendarWriter {
  write(deps: WriterDeps, input: WriteInput): Promise<WriteResult>;
  /** Delete what a record says was written; already gone counts as done. */
  remove(deps: WriterDeps, input: { record: WriteRecord; calendarUrl: string }): Promise<void>;
}

async function caldavAccount(deps: WriterDeps, connectionId: string) {
  const creds = await loadCredentials(deps, { connectionId });
  if (creds?.kind !== 'caldav') throw new CalendarWriteError('the connection has no CalDAV account any more', null, { permanent: true });
  return { username: creds.username, password: creds.password };
}

/** CalDAV (RFC 4791): a PUT of the VEVENT at a resource named from the UID (caldav-write.ts). */
const caldavWriter: CalendarWriter = {
  async write(deps, { cal, meeting: m, uid, summary, description, here }) {
    const account = await caldavAccount(deps, cal.connection_id);
    const url = here?.href ?? objectUrl(cal.url, uid);
    const ics = calendarObjectIcs({
      uid,
      sequence: m.ical_sequence,
      summary,
      description,
      start: new Date(m.start_time),
      end: new Date(m.end_time),
      location: m.meeting_link,
      url: m.meeting_link && /^https?:/.test(m.meeting_link) ? m.meeting_link : null,
      status: m.status === 'pending_confirmation' ? 'tentative' : 'confirmed',
    });
    const put = await putCalendarObject({ account, policy: webhookUrlPolicy(deps.config), url, ics, etag: here?.etag ?? null });
    return { href: put.url, etag: put.etag, htmlUrl: put.url, providerEventId: null, providerIcalUid: null, meetLink: null };
  },
  async remove(deps, { record }) {
    const account = await caldavAccount(deps, record.connection_id);
    await deleteCalendarObject({ account, policy: webhookUrlPolicy(deps.config), url: record.href });
  },
};

export const calendarWriters = { caldav: caldavWriter, google: googleWriter } satisfies Record<string, CalendarWriter>;
export type WritableKind = keyof typeof calendarWriters;
/** The kinds of connection whose calendars may receive bookings (an iCal feed never does). */
export const WRITABLE_KINDS = Object.keys(calendarWriters) as WritableKind[];
