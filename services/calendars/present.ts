import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';
import type { CalendarRow, ConnectionRow } from './rows';

/** The API shape of a calendar connection. Credentials (password, a feed's secret path) are never part of it. */

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentCalendar(c: CalendarRow) {
  return {
    id: c.id,
    name: c.display_name,
    color: c.color,
    timezone: c.timezone,
    read_only: c.read_only,
    check_conflicts: c.check_conflicts,
    is_booking_calendar: c.is_booking_calendar,
    event_count: c.event_count,
    last_synced_at: iso(c.last_synced_at),
  };
}

export function presentConnection(r: ConnectionRow, calendars: CalendarRow[]) {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    user_id: r.user_id,
    url: r.display_url,
    account_email: r.account_email,
    status: r.status,
    status_message: r.status_message,
    last_synced_at: iso(r.last_synced_at),
    last_error_at: iso(r.last_error_at),
    reauth_email_sent_at: iso(r.reauth_email_sent_at),
    counts: {
      calendars: calendars.length,
      events: r.event_count,
      busy_intervals: r.busy_count,
      unreadable: r.unreadable_count,
      skipped_components: r.skipped_count,
    },
    skipped_components: r.skipped,
    calendars: calendars.map(presentCalendar),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export const zConnectionCalendar = z
  .strictObject({
    id: zId,
    name: z.string(),
    color: z.string().nullable(),
    timezone: z.string().nullable().meta({ description: "The calendar's own time zone, when the server gives one" }),
    read_only: z.boolean().meta({ description: 'The account cannot write to it (it cannot receive bookings)' }),
    check_conflicts: z.boolean().meta({ description: 'Its events block availability' }),
    is_booking_calendar: z.boolean().meta({ description: "Bookings are written to it (at most one of the user's calendars)" }),
    event_count: z.number().int(),
    last_synced_at: zIsoTime.nullable(),
  })
  .meta({ id: 'CalendarConnectionCalendar' });

export const zConnection = z
  .strictObject({
    id: zId,
    kind: z.enum(['caldav', 'ics_feed', 'google', 'microsoft']),
    name: z.string(),
    user_id: zId.meta({ description: 'The host whose availability this connection feeds' }),
    url: z.string().meta({
      description: "The CalDAV server URL; for a feed only its scheme and host (the feed's path is its secret)",
      example: 'https://caldav.fastmail.com/',
    }),
    account_email: z
      .string()
      .nullable()
      .meta({ description: 'The Google or Microsoft account of a `google` or `microsoft` connection (null for the other kinds)' }),
    status: z.enum(['ok', 'syncing', 'error', 'stale', 'needs_reauth']).meta({
      description:
        '`needs_reauth`: Google or Microsoft no longer accepts the connection; connect it again (until then the host offers no times)',
    }),
    status_message: z.string().nullable().meta({
      description: 'Why the last sync failed, in words',
      example: 'the server refused the username or password (HTTP 401 from caldav.example.com)',
    }),
    last_synced_at: zIsoTime.nullable(),
    last_error_at: zIsoTime.nullable(),
    reauth_email_sent_at: zIsoTime.nullable().meta({
      description: 'When the host was emailed that the connection is `needs_reauth` (once; null again after connecting it anew)',
    }),
    counts: z.strictObject({
      calendars: z.number().int(),
      events: z.number().int().meta({ description: 'Calendar objects (events, with their recurrences) the last sync saw' }),
      busy_intervals: z.number().int().meta({ description: 'Busy intervals cached for the booking window' }),
      unreadable: z.number().int().meta({ description: 'Calendar objects skipped because they are not valid iCalendar' }),
      skipped_components: z.number().int().meta({
        description: 'Lines, time zones and events that could not be read inside readable calendar objects and were skipped',
      }),
    }),
    skipped_components: z.array(z.strictObject({ what: z.string(), reason: z.string() })).meta({
      description: 'The first 20 of the skipped parts, each with why',
      example: [{ what: 'VEVENT abc@example.com', reason: 'RRULE has an unknown part: UNTL' }],
    }),
    calendars: z.array(zConnectionCalendar),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'CalendarConnection' });
