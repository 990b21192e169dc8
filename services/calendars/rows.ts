/** Rows of the calendar tables (db/migrations/015 and 016). */
export type ConnectionKind = 'caldav' | 'ics_feed';
export type ConnectionStatus = 'ok' | 'syncing' | 'error';

export interface ConnectionRow {
  id: string;
  team_id: string;
  user_id: string;
  kind: ConnectionKind;
  name: string;
  display_url: string;
  credentials_enc: string;
  status: ConnectionStatus;
  status_message: string | null;
  last_synced_at: Date | null;
  last_error_at: Date | null;
  etag: string | null;
  last_modified: string | null;
  event_count: number;
  busy_count: number;
  home_url: string | null;
  expanded_from: Date | null;
  expanded_until: Date | null;
  unreadable_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface CalendarRow {
  id: string;
  connection_id: string;
  team_id: string;
  user_id: string;
  url: string;
  display_name: string;
  color: string | null;
  timezone: string | null;
  read_only: boolean;
  check_conflicts: boolean;
  is_booking_calendar: boolean;
  ctag: string | null;
  sync_token: string | null;
  supports_sync: boolean;
  event_count: number;
  last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The one object a feed is stored as (a feed has no calendars and no hrefs of its own). */
export const FEED_HREF = 'feed';
