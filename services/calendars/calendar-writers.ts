import { webhookUrlPolicy } from '../../core/config';
import { calendarObjectIcs } from '../../domain/ics';
import { CalendarWriteError, deleteCalendarObject, objectUrl, putCalendarObject } from './caldav-write';
import { googleWriter } from './google-write';
import { microsoftWriter } from './microsoft-write';
import { loadCredentials } from './secrets';
import type { CalendarWriter, WritableKind, WriterDeps } from './calendar-writer';

export type { CalendarWriter, Destination, WritableKind, WriteInput, WriteRecord, WriteResult, WriterDeps } from './calendar-writer';

/**
 * One writer per kind of connection that can receive bookings (docs/scheduling.md "Host calendars:
 * write-back"): services/calendars/write-back.ts decides what to write where and records it; a
 * writer only talks to its provider. A writer throws CalendarWriteError (a human sentence, and
 * whether to retry). Another provider plugs in by adding its kind here.
 */

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

export const calendarWriters: Record<WritableKind, CalendarWriter> = {
  caldav: caldavWriter,
  google: googleWriter,
  microsoft: microsoftWriter,
};
/** The kinds of connection whose calendars may receive bookings (an iCal feed never does). */
export const WRITABLE_KINDS = Object.keys(calendarWriters) as WritableKind[];
