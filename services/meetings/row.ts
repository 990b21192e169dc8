import type { MeetingsRow } from '../../db/tables';

/**
 * A meeting as stored. It lives here, below scheduling, calendars and the meeting follow-up,
 * so that each of them can name a meeting without importing another.
 */
export type MeetingRow = MeetingsRow;
