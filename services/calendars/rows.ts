/** Rows of the calendar tables (db/migrations/015 and 016), as db/tables.ts declares them. */
import type { CalendarConnectionCalendarsRow, CalendarConnectionsRow } from '../../db/tables';

export type ConnectionRow = CalendarConnectionsRow;
export type CalendarRow = CalendarConnectionCalendarsRow;
export type ConnectionKind = ConnectionRow['kind'];
export type ConnectionStatus = ConnectionRow['status'];

/** The one object a feed is stored as (a feed has no calendars and no hrefs of its own). */
export const FEED_HREF = 'feed';
