/**
 * A CalDAV connection with a chosen booking calendar, made through the public API as a user would:
 * POST /api/v1/calendar-connections (discovery and the first sync run in the worker's
 * `calendar-sync-<id>` workflow), then PATCH `booking_calendar_id` to the calendar named
 * `calendarName` (or null: no booking calendar).
 */
import { client } from './http';

export interface TestCalendarConnection {
  connectionId: string;
  /** The booking calendar's id (null when none was chosen). */
  calendarId: string | null;
}

export async function connectCaldav(
  baseUrl: string,
  session: string,
  opts: { serverUrl: string; username: string; password: string; calendarName: string | null; timeoutMs?: number },
): Promise<TestCalendarConnection> {
  const api = client(baseUrl, session);
  const created = await api.post('/api/v1/calendar-connections', {
    kind: 'caldav',
    server_url: opts.serverUrl,
    username: opts.username,
    password: opts.password,
  });
  if (created.status !== 201) throw new Error(`connect: ${created.status} ${created.text}`);
  const connectionId = created.body.data.id as string;
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let conn: any;
  for (;;) {
    conn = (await api.get(`/api/v1/calendar-connections/${connectionId}`)).body.data;
    if (conn.status === 'error') throw new Error(`the first sync failed: ${conn.status_message}`);
    if (conn.status === 'ok' && (opts.calendarName === null || conn.calendars.some((c: any) => c.name === opts.calendarName))) break;
    if (Date.now() > deadline) throw new Error(`the first sync of ${connectionId} did not finish: ${JSON.stringify(conn)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const calendarId = opts.calendarName === null ? null : (conn.calendars.find((c: any) => c.name === opts.calendarName).id as string);
  const since = Date.now();
  const patched = await api.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: calendarId });
  if (patched.status !== 200) throw new Error(`choose the booking calendar: ${patched.status} ${patched.text}`);
  // A change to a connection syncs it (docs/calendars.md): wait for that sync, so it does not land in the test.
  for (;;) {
    conn = (await api.get(`/api/v1/calendar-connections/${connectionId}`)).body.data;
    if (conn.status === 'ok' && Date.parse(conn.last_synced_at) >= since) break;
    if (Date.now() > deadline + 30_000)
      throw new Error(`the sync after choosing the booking calendar did not finish: ${JSON.stringify(conn)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { connectionId, calendarId };
}
