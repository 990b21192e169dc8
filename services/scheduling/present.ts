/** Row → API shapes of the scheduling resources (interface-spec "Resources and their fields"). */
import type { AvailabilityDateOverridesRow } from '../../db/tables';
import type { AvailabilitySchedulesRow } from '../../db/tables';
import type { EventTypesRow } from '../../db/tables';
import type { SchedulingPagesRow } from '../../db/tables';
import type { MeetingRow } from '../meetings/row';
import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';
import { MEETING_STATUSES } from '../../domain/meeting-state';
import { AI_NOTES_REASONS, RECORDING_REASONS } from '../../domain/meeting-followup';

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

export type PageRow = SchedulingPagesRow;

export type EventTypeRow = EventTypesRow;

/** The calendar event row a booking answers with (the host's own calendar, source `meeting`). */
export interface CalendarEventRow {
  id: string;
  summary: string;
  start_time: Date;
  end_time: Date;
}

export function presentPageSummary(p: PageRow, hostUserIds: string[]) {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    description: p.description,
    type: p.type,
    page_type: p.page_type,
    status: p.status,
    settings: p.settings,
    host_user_ids: hostUserIds,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
    published_at: iso(p.published_at),
  };
}

export function presentPage(p: PageRow, hostUserIds: string[], eventTypes: EventTypeRow[], video?: AdapterOf) {
  return {
    ...presentPageSummary(p, hostUserIds),
    remove_branding: p.remove_branding,
    event_types: eventTypes.map((e) => presentEventType(e, video)),
  };
}

/** The process's video adapters (core/video `VideoProviders`): which one stands behind a location type. */
type AdapterOf = { adapterOf(locationType: string | null): string | null };

export function presentEventType(e: EventTypeRow, video?: AdapterOf) {
  return {
    id: e.id,
    scheduling_page_id: e.scheduling_page_id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    duration_minutes: e.duration_minutes,
    location_type: e.location_type,
    video_adapter: video?.adapterOf(e.location_type) ?? null,
    location: e.location_value,
    is_active: e.is_active,
    color: e.color,
    position: e.position,
    buffer_time_before: e.buffer_time_before,
    buffer_time_after: e.buffer_time_after,
    min_notice_minutes: e.min_notice_minutes,
    max_booking_days: e.max_booking_days,
    max_bookings_per_day: e.max_bookings_per_day,
    max_bookings_per_week: e.max_bookings_per_week,
    start_time_increment: e.start_time_increment,
    requires_confirmation: e.requires_confirmation,
    guests_allowed: e.guests_allowed,
    ai_notes_enabled: e.ai_notes_enabled,
    destination_calendar_id: e.destination_calendar_id,
    created_at: iso(e.created_at),
    updated_at: iso(e.updated_at),
  };
}

/** List items carry ai_notes (the spec: "list of meetings, including AI notes"). */
export function presentMeetingSummary(m: MeetingRow) {
  return {
    id: m.id,
    title: m.title,
    attendee_name: m.attendee_name,
    attendee_email: m.attendee_email,
    attendee_phone: m.attendee_phone,
    start_time: iso(m.start_time),
    end_time: iso(m.end_time),
    timezone: m.timezone,
    status: m.status,
    meeting_link: m.meeting_link,
    notes: m.notes,
    guests: m.guests,
    contact_id: m.contact_id,
    host_user_id: m.host_user_id,
    event_type_id: m.event_type_id,
    scheduling_page_id: m.scheduling_page_id,
    cancellation_reason: m.cancellation_reason,
    confirmation_email_sent: m.confirmation_email_sent,
    rescheduled_from_id: m.rescheduled_from_id,
    rescheduled_to_id: m.rescheduled_to_id,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    ai_notes: m.ai_notes,
    ai_notes_reason: m.ai_notes ? null : m.ai_notes_reason,
  };
}

/**
 * One meeting. `calendarLink` is where it opens without a login (services/scheduling/feed.ts): for
 * the team's own API the event on the host's calendar server, else the host's feed; in a public
 * answer the meeting's own .ics link.
 */
export function presentMeeting(m: MeetingRow, calendarLink: string) {
  return {
    ...presentMeetingSummary(m),
    recording: m.recording,
    recording_reason: m.recording ? null : m.recording_reason,
    field_values: m.field_values,
    source: m.source,
    form_id: m.form_id,
    submission_id: m.submission_id,
    calendar_link: calendarLink,
  };
}

export type ScheduleRow = AvailabilitySchedulesRow;

export type OverrideRow = AvailabilityDateOverridesRow;

export function presentSchedule(s: ScheduleRow, overrides: OverrideRow[]) {
  return {
    id: s.id,
    user_id: s.user_id,
    name: s.name,
    timezone: s.timezone,
    is_default: s.is_default,
    rules: s.rules,
    date_overrides: overrides.map((o) => ({
      id: o.id,
      date: o.date,
      is_unavailable: o.is_unavailable,
      start: o.start,
      end: o.end,
      reason: o.reason ?? '',
    })),
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

/* ---- Answer schemas: the same shapes as the presenters above (OpenAPI document, response check). ---- */

const nullableTime = zIsoTime.nullable();

export const zPageSummary = z
  .strictObject({
    id: zId,
    title: z.string(),
    slug: z.string(),
    description: z.string(),
    type: z.string(),
    page_type: z.enum(['one_on_one', 'round_robin', 'group']),
    status: z.enum(['draft', 'published']),
    settings: z.record(z.string(), z.unknown()),
    host_user_ids: z.array(zId),
    created_at: zIsoTime,
    updated_at: zIsoTime,
    published_at: nullableTime,
  })
  .meta({ id: 'SchedulingPageSummary' });

export const zEventType = z
  .strictObject({
    id: zId,
    scheduling_page_id: zId,
    title: z.string(),
    slug: z.string(),
    description: z.string(),
    duration_minutes: z.number().int(),
    location_type: z.string(),
    video_adapter: z.enum(['url', 'daily', 'zoom', 'google_meet', 'microsoft_teams']).nullable().meta({
      description:
        'The video adapter behind `location_type` on this server (VIDEO_PROVIDER_1_ADAPTER / _2): `google_meet` makes the link on the host’s Google destination calendar, `microsoft_teams` on the host’s Microsoft one; null: not a video location',
    }),
    location: z.string().nullable(),
    is_active: z.boolean(),
    color: z.string(),
    position: z.number().int(),
    buffer_time_before: z.number().int(),
    buffer_time_after: z.number().int(),
    min_notice_minutes: z.number().int(),
    max_booking_days: z.number().int(),
    max_bookings_per_day: z.number().int().nullable().meta({ description: "Per host, in the host's timezone; null: no limit" }),
    max_bookings_per_week: z.number().int().nullable().meta({ description: 'Per host, Monday to Sunday; null: no limit' }),
    start_time_increment: z.number().int(),
    requires_confirmation: z.boolean(),
    guests_allowed: z.boolean(),
    ai_notes_enabled: z.boolean().meta({
      description:
        'Record the meeting, keep its transcript and write AI notes after it (off by default); the confirmation email then says so',
    }),
    destination_calendar_id: zId.nullable().meta({
      description:
        "A writable calendar (CalDAV, or Google with the role owner or writer) of a host of the page that receives this type's bookings instead of that host's booking calendar; null: each host's booking calendar",
    }),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'EventType' });

export const zPage = zPageSummary.extend({ remove_branding: z.boolean(), event_types: z.array(zEventType) }).meta({ id: 'SchedulingPage' });

const meetingStatus = z.enum(MEETING_STATUSES);

export const zMeetingSummary = z
  .strictObject({
    id: zId,
    title: z.string(),
    attendee_name: z.string(),
    attendee_email: z.string(),
    attendee_phone: z.string().nullable(),
    start_time: zIsoTime,
    end_time: zIsoTime,
    timezone: z.string(),
    status: meetingStatus,
    meeting_link: z.string().nullable(),
    notes: z.string().nullable(),
    guests: z.array(z.string()),
    contact_id: zId.nullable(),
    host_user_id: zId,
    event_type_id: zId.nullable(),
    scheduling_page_id: zId.nullable(),
    cancellation_reason: z.string().nullable(),
    rescheduled_from_id: zId.nullable().meta({ description: 'The meeting this one replaced by a reschedule' }),
    rescheduled_to_id: zId.nullable().meta({ description: 'The meeting that replaced this one (status rescheduled)' }),
    confirmation_email_sent: z.boolean(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
    ai_notes: z.strictObject({ summary: z.string(), action_items: z.array(z.string()) }).nullable(),
    ai_notes_reason: z.enum(AI_NOTES_REASONS).nullable().meta({
      description: 'Why ai_notes is null (docs/scheduling.md "After the meeting"); null when there are notes or nothing was tried yet',
    }),
  })
  .meta({ id: 'MeetingSummary' });

export const zMeeting = zMeetingSummary
  .extend({
    recording: z.strictObject({ url: z.string(), duration_seconds: z.number() }).nullable(),
    recording_reason: z.enum(RECORDING_REASONS).nullable().meta({
      description: 'Why recording is null (docs/scheduling.md "After the meeting"); null when there is one or nothing was tried yet',
    }),
    field_values: z.record(z.string(), z.unknown()),
    source: z.enum(['routing']).nullable().meta({
      description: 'How the meeting came: `routing` from a routed form submission (docs/forms.md "Routing"); null for a plain booking',
    }),
    form_id: zId.nullable().meta({ description: 'The form of the routed submission' }),
    submission_id: zId.nullable().meta({ description: 'The routed submission the meeting was booked from' }),
    calendar_link: z.string().meta({
      description:
        "Opens the meeting without a login: the event on the host's own calendar once it was written there, else the host's iCalendar feed; in the public booking answer, the meeting's own .ics link",
    }),
  })
  .meta({ id: 'Meeting' });

export const zSchedule = z
  .strictObject({
    id: zId,
    user_id: zId,
    name: z.string(),
    timezone: z.string(),
    is_default: z.boolean(),
    rules: z.array(z.strictObject({ day: z.number().int(), start: z.string(), end: z.string(), enabled: z.boolean() })),
    date_overrides: z.array(
      z.strictObject({
        id: zId,
        date: z.string(),
        is_unavailable: z.boolean(),
        start: z.string().nullable(),
        end: z.string().nullable(),
        reason: z.string(),
      }),
    ),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'AvailabilitySchedule' });

const slotExtras = { round_robin: z.literal(true).optional(), available_host_count: z.number().int().optional() };

/** Variant A of GET /api/calendar/availability (services/scheduling/availability.ts availabilityA). */
export const zAvailabilityA = z
  .strictObject({
    date: z.string(),
    duration: z.number().int(),
    timezone: z.string(),
    available_slots: z.array(z.strictObject({ start: zIsoTime, end: zIsoTime, ...slotExtras })),
  })
  .meta({ id: 'CalendarAvailabilityA' });

/** Variant B (availabilityB): offset-bearing times in the requested zone, and the event type. */
export const zAvailabilityB = z
  .strictObject({
    data: z.strictObject({
      slots: z.array(z.strictObject({ start: zIsoTime, end: zIsoTime, ...slotExtras })),
      timezone: z.string(),
      event_type: z.strictObject({ id: zId, title: z.string(), duration_minutes: z.number().int() }),
    }),
  })
  .meta({ id: 'CalendarAvailabilityB' });

/** Variant A of POST /api/calendar/book (presentBookingA). */
export const zBookingA = z
  .strictObject({
    success: z.literal(true),
    meeting: zMeeting.pick({
      id: true,
      event_type_id: true,
      scheduling_page_id: true,
      host_user_id: true,
      contact_id: true,
      start_time: true,
      end_time: true,
      status: true,
      meeting_link: true,
      timezone: true,
      created_at: true,
    }),
    event: z.strictObject({ id: z.string(), summary: z.string(), start: zIsoTime, end: zIsoTime, htmlLink: z.string() }).meta({
      description:
        "The booking's calendar event: on a Google or Microsoft destination calendar the provider's event (its id, and `htmlLink` = Google's htmlLink or Microsoft's webLink) once the worker wrote it within BOOKING_EVENT_WAIT_MS; else our own event and the meeting's own .ics link",
    }),
    meeting_link: z.string().nullable(),
  })
  .meta({ id: 'CalendarBookingA' });

export const zBookingB = z.strictObject({ data: zMeeting }).meta({ id: 'CalendarBookingB' });

/** The answer of variant A of the booking endpoint: the meeting, its calendar event and the event's link. */
export function presentBookingA(
  meeting: MeetingRow,
  event: { id: string; summary: string; start_time: Date; end_time: Date; htmlLink: string },
) {
  const { htmlLink } = event;
  const m = presentMeeting(meeting, htmlLink);
  return {
    success: true as const,
    meeting: {
      id: m.id,
      event_type_id: m.event_type_id,
      scheduling_page_id: m.scheduling_page_id,
      host_user_id: m.host_user_id,
      contact_id: m.contact_id,
      start_time: m.start_time,
      end_time: m.end_time,
      status: m.status,
      meeting_link: m.meeting_link,
      timezone: m.timezone,
      created_at: m.created_at,
    },
    event: {
      id: event.id,
      summary: event.summary,
      start: new Date(event.start_time).toISOString(),
      end: new Date(event.end_time).toISOString(),
      htmlLink,
    },
    meeting_link: m.meeting_link,
  };
}

export const zCalendarFeed = z.strictObject({ user_id: zId, url: z.string() }).meta({ id: 'CalendarFeed' });
