/** Row → API shapes of the scheduling resources (interface-spec "Resources and their fields"). */

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

export interface PageRow {
  id: string;
  team_id: string;
  title: string;
  slug: string;
  description: string;
  type: string;
  page_type: string;
  status: string;
  settings: Record<string, unknown>;
  remove_branding: boolean;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface EventTypeRow {
  id: string;
  team_id: string;
  scheduling_page_id: string;
  title: string;
  slug: string;
  description: string;
  duration_minutes: number;
  location_type: string;
  location_value: string | null;
  is_active: boolean;
  color: string;
  position: number;
  buffer_time_before: number;
  buffer_time_after: number;
  min_notice_minutes: number;
  max_booking_days: number;
  max_bookings_per_day: number | null;
  max_bookings_per_week: number | null;
  start_time_increment: number;
  requires_confirmation: boolean;
  guests_allowed: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface MeetingRow {
  id: string;
  team_id: string;
  event_type_id: string | null;
  scheduling_page_id: string | null;
  host_user_id: string;
  contact_id: string | null;
  title: string;
  description: string | null;
  attendee_name: string;
  attendee_email: string;
  attendee_phone: string | null;
  start_time: Date;
  end_time: Date;
  timezone: string;
  status: string;
  location_type: string | null;
  meeting_link: string | null;
  notes: string | null;
  guests: string[];
  cancellation_reason: string | null;
  field_values: Record<string, unknown>;
  ai_notes: { summary: string; action_items: string[] } | null;
  recording: { url: string; duration_seconds: number } | null;
  confirmation_email_sent: boolean;
  /** iCalendar UID (null: derived from the id); a reschedule carries the first meeting's UID forward. */
  ical_uid: string | null;
  /** iCalendar SEQUENCE of the meeting's current invite; bumped by a reschedule and by the CANCEL. */
  ical_sequence: number;
  rescheduled_from_id: string | null;
  rescheduled_to_id: string | null;
  created_at: Date;
  updated_at: Date;
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

export function presentPage(p: PageRow, hostUserIds: string[], eventTypes: EventTypeRow[]) {
  return { ...presentPageSummary(p, hostUserIds), remove_branding: p.remove_branding, event_types: eventTypes.map(presentEventType) };
}

export function presentEventType(e: EventTypeRow) {
  return {
    id: e.id,
    scheduling_page_id: e.scheduling_page_id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    duration_minutes: e.duration_minutes,
    location_type: e.location_type,
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
  };
}

export function presentMeeting(m: MeetingRow) {
  return { ...presentMeetingSummary(m), recording: m.recording, field_values: m.field_values };
}

export interface ScheduleRow {
  id: string;
  team_id: string;
  user_id: string;
  name: string;
  timezone: string;
  is_default: boolean;
  rules: Array<{ day: number; start: string; end: string; enabled: boolean }>;
  created_at: Date;
  updated_at: Date;
}

export interface OverrideRow {
  id: string;
  schedule_id: string;
  date: string;
  is_unavailable: boolean;
  start: string | null;
  end: string | null;
  reason: string | null;
}

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
