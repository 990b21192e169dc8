/**
 * A CalDAV connection for a user, made by inserting rows (calendar_connections with sealed
 * credentials, one calendar_connection_calendars row chosen as the booking calendar): the write-back
 * tests need a connection without running discovery and the sync workflow.
 * TODO(lead, on merge with issue-cal): create it through POST /api/v1/calendar-connections instead.
 */
import type { Config } from '../../core/config';
import type { Db } from '../../db/knex';
import { calendarSecretBox, sealCredentials } from '../../services/calendars/secrets';

export interface TestCalendarConnection {
  connectionId: string;
  calendarId: string;
  calendarUrl: string;
}

export async function insertCaldavConnection(
  db: Db,
  config: Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>,
  opts: {
    teamId: string;
    userId: string;
    serverUrl: string;
    username: string;
    password: string;
    /** The collection URL (with trailing slash) that receives bookings. */
    calendarUrl: string;
    displayName?: string;
    isBookingCalendar?: boolean;
  },
): Promise<TestCalendarConnection> {
  const [conn] = await db('calendar_connections')
    .insert({
      team_id: opts.teamId,
      user_id: opts.userId,
      kind: 'caldav',
      name: 'Test CalDAV',
      display_url: opts.serverUrl,
      credentials_enc: 'pending',
      status: 'ok',
    })
    .returning('id');
  const connectionId = conn.id as string;
  const sealed = sealCredentials(calendarSecretBox(config), connectionId, {
    kind: 'caldav',
    url: opts.serverUrl,
    username: opts.username,
    password: opts.password,
  });
  await db('calendar_connections').where({ id: connectionId }).update({ credentials_enc: sealed });
  const [cal] = await db('calendar_connection_calendars')
    .insert({
      connection_id: connectionId,
      team_id: opts.teamId,
      user_id: opts.userId,
      url: opts.calendarUrl,
      display_name: opts.displayName ?? 'Work',
      is_booking_calendar: opts.isBookingCalendar ?? true,
      check_conflicts: false,
    })
    .returning('id');
  return { connectionId, calendarId: cal.id as string, calendarUrl: opts.calendarUrl };
}
