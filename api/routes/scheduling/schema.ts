import { z } from 'zod';
import { MEETING_STATUSES } from '../../../domain/meeting-state';
import { TRANSCRIPT_MAX_CHARS } from '../../../services/meeting-followup/transcripts';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zIanaZone, zText, zTimestamp, zUuid, zVariants } from '../../../core/validate';
import { INCREMENTS, LOCATION_TYPES } from '../../../services/scheduling/event-types';
import { PAGE_TYPES } from '../../../services/scheduling/pages';
import {
  zAvailabilityA,
  zAvailabilityB,
  zBookingA,
  zBookingB,
  zCalendarFeed,
  zEventType,
  zMeeting,
  zMeetingSummary,
  zPage,
  zPageSummary,
  zSchedule,
} from '../../../services/scheduling/present';
import { SLUG_RE } from '../../../services/scheduling/slug';

/** Request and answer schemas of the scheduling routes (pages, event types, meetings, availability, calendar). */

const zDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date YYYY-MM-DD' })
  .meta({ example: '2030-01-15' });

/* ---- scheduling pages and event types ---- */

const zSlug = z.string().min(1).max(80).regex(SLUG_RE, { error: 'must be lowercase words joined by -' }).meta({ example: 'intro-call' });
const minutes = (max: number) => z.number().int().min(0).max(max);

const pageFields = {
  title: zText(200).min(1),
  slug: zSlug.optional(),
  description: zText(5000).optional(),
  page_type: z.enum(PAGE_TYPES).optional(),
  status: z.enum(['draft', 'published']).optional(),
  settings: z
    .strictObject({
      confirmation_message: zText(2000).optional(),
      show_avatar: z.boolean().optional(),
      redirect_url: z
        .url({ protocol: /^https?$/ })
        .max(2000)
        .optional(),
    })
    .optional(),
  remove_branding: z.boolean().optional(),
  host_user_ids: z.array(zUuid).min(1).max(50).optional(),
};
export const createPageBody = z.strictObject(pageFields);
export const updatePageBody = z.strictObject({ ...pageFields, title: pageFields.title.optional() });
export const pageListQuery = z.strictObject({ ...paginationQuery, status: z.enum(['draft', 'published']).optional() });

const eventTypeFields = {
  title: zText(200).min(1),
  slug: zSlug.optional(),
  description: zText(5000).optional(),
  duration_minutes: z.number().int().min(5).max(720).optional(),
  location_type: z.enum(LOCATION_TYPES).optional(),
  location: zText(500).nullable().optional(),
  is_active: z.boolean().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'must be a hex colour like #1a2b3c' })
    .meta({ example: '#1a73e8' })
    .optional(),
  position: z.number().int().min(0).max(10_000).optional(),
  buffer_time_before: minutes(720).optional(),
  buffer_time_after: minutes(720).optional(),
  min_notice_minutes: minutes(525_600).optional(),
  max_booking_days: z.number().int().min(1).max(730).optional(),
  /** Per host, in the host's timezone (a week runs Monday to Sunday); null removes the limit. */
  max_bookings_per_day: z.number().int().min(1).max(1000).nullable().optional(),
  max_bookings_per_week: z.number().int().min(1).max(5000).nullable().optional(),
  start_time_increment: z
    .union(
      INCREMENTS.map((n) => z.literal(n)),
      { error: 'must be one of 5, 10, 15, 30, 60' },
    )
    .optional(),
  requires_confirmation: z.boolean().optional(),
  guests_allowed: z.boolean().optional(),
  /** Record, transcribe and summarise the meetings of this type (off by default; docs/scheduling.md "After the meeting"). */
  ai_notes_enabled: z.boolean().optional(),
  /** A writable calendar of a host of the page that receives this type's bookings (docs/scheduling.md "Host calendars: write-back"); null: the host's booking calendar. */
  destination_calendar_id: zUuid.nullable().optional(),
};
export const createEventTypeBody = z.strictObject(eventTypeFields);
export const updateEventTypeBody = z.strictObject({ ...eventTypeFields, title: eventTypeFields.title.optional() });
export const eventTypeParams = z.strictObject({ id: zUuid, event_type_id: zUuid });
export const plainListQuery = z.strictObject(paginationQuery);

export const pageAnswer = dataOf(zPage);
export const pageList = listOf(zPageSummary);
export const eventTypeAnswer = dataOf(zEventType);
export const eventTypeList = listOf(zEventType);

/* ---- meetings ---- */

/** An ISO date (YYYY-MM-DD, midnight UTC) or an ISO 8601 timestamp. */
const zDateOrTime = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) || z.iso.datetime({ offset: true }).safeParse(s).success, {
    error: 'must be an ISO 8601 date or timestamp',
  })
  .transform((s) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s))
  .refine((d) => !Number.isNaN(d.getTime()), { error: 'must be a valid date' });

export const meetingListQuery = z.strictObject({
  ...paginationQuery,
  status: z.enum(MEETING_STATUSES).optional(),
  since: zDateOrTime.optional(),
  until: zDateOrTime.optional(),
  scheduling_page_id: zUuid.optional(),
});
export const meetingPatchBody = z.strictObject({
  status: z.enum(MEETING_STATUSES).optional(),
  notes: zText(10_000).nullable().optional(),
  cancellation_reason: zText(2000).optional(),
  /** A new start: the meeting keeps its length; the same slot rules as a booking apply (409 taken, 400 not offered). */
  start_time: zTimestamp.optional(),
});
export const meetingAnswer = dataOf(zMeeting);
/** PUT /api/v1/meetings/{id}/recording: an integrator's own recording (docs/scheduling.md "After the meeting"). */
export const meetingRecordingBody = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000),
  duration_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400),
});
/** POST /api/v1/meetings/{id}/transcript: WebVTT or plain text, at most 500,000 characters. */
export const meetingTranscriptBody = z.strictObject({
  format: z.enum(['vtt', 'text']).meta({ description: '`vtt`: WebVTT (cues with voice spans); `text`: plain text' }),
  content: z
    .string()
    .min(1)
    .max(TRANSCRIPT_MAX_CHARS, { error: `at most ${TRANSCRIPT_MAX_CHARS} characters` })
    .meta({ example: 'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ada>Let us send the quote on Friday.' }),
});
export const meetingList = listOf(zMeetingSummary);

/* ---- availability schedules and calendar feeds ---- */

const zTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: 'must be HH:MM' })
  .meta({ example: '09:00' });
const zRealDate = zDate.refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), { error: 'must be a real date' });
const rule = z
  .strictObject({ day: z.number().int().min(0).max(6), start: zTime, end: zTime, enabled: z.boolean() })
  .refine((r) => r.start < r.end, { error: 'end must be after start', path: ['end'] });

export const scheduleListQuery = z.strictObject({ ...paginationQuery, user_id: zUuid.optional() });
export const schedulePatchBody = z.strictObject({
  name: zText(200).min(1).optional(),
  timezone: zIanaZone.optional(),
  rules: z.array(rule).max(50).optional(),
});
export const overrideBody = z
  .strictObject({
    date: zRealDate,
    is_unavailable: z.boolean(),
    start: zTime.optional(),
    end: zTime.optional(),
    reason: zText(500).optional(),
  })
  .refine((o) => o.is_unavailable || (o.start !== undefined && o.end !== undefined && o.start < o.end), {
    error: 'an available override needs start before end',
    path: ['start'],
  });
export const overrideParams = z.strictObject({ id: zUuid, override_id: zUuid });
export const feedBody = z.strictObject({ user_id: zUuid.optional() });
export const scheduleAnswer = dataOf(zSchedule);
export const scheduleList = listOf(zSchedule);
export const feedAnswer = dataOf(zCalendarFeed);

/* ---- the public calendar endpoints: two variants each (DESIGN.md §3) ---- */

const zDuration = z
  .string()
  .regex(/^\d+$/, { error: 'must be a whole number of minutes' })
  .transform(Number)
  .pipe(z.number().int().min(5).max(720));
const zEmail = z.email({ error: 'must be an email address' }).max(254);
const zGuests = z.array(zEmail).max(20);
const zObject = z.record(z.string().max(100), z.unknown());
const zRoutingToken = z
  .string()
  .max(120)
  .regex(/^pf_[A-Za-z0-9._-]+$/, { error: 'must be a routing prefill token' });

export const availabilityQueryA = z
  .strictObject({
    user_id: zUuid,
    team_id: zUuid,
    date: zDate,
    duration: zDuration.optional(),
    timezone: zIanaZone.optional(),
    event_type_id: zUuid.optional(),
    scheduling_page_id: zUuid.optional(),
  })
  .meta({ id: 'CalendarAvailabilityQueryA', description: 'Variant A: one date of one host (user_id, team_id, date)' });
export const availabilityQueryB = z
  .strictObject({
    event_type_id: zUuid,
    start_date: zDate,
    end_date: zDate,
    timezone: zIanaZone,
    /** A routed submission's prefill token (docs/forms.md "Routing"): only its routed hosts' times. */
    routing_token: zRoutingToken.optional(),
  })
  .meta({ id: 'CalendarAvailabilityQueryB', description: 'Variant B: a date range of an event type' });

export const bookBodyA = z
  .strictObject({
    user_id: zUuid,
    team_id: zUuid,
    start: zTimestamp,
    end: zTimestamp,
    attendee_email: zEmail,
    attendee_name: zText(200).optional(),
    title: zText(200).optional(),
    description: zText(5000).optional(),
    timezone: zIanaZone.optional(),
    event_type_id: zUuid.optional(),
    scheduling_page_id: zUuid.optional(),
    guests: zGuests.optional(),
    notes: zText(5000).optional(),
    lead_capture_data: zObject.optional(),
    custom_fields: zObject.optional(),
  })
  .meta({ id: 'CalendarBookRequestA', description: 'Variant A: a host (user_id, team_id), start/end and attendee_email' });
export const bookBodyB = z
  .strictObject({
    event_type_id: zUuid,
    start_time: zTimestamp,
    end_time: zTimestamp,
    timezone: zIanaZone,
    name: zText(200).min(1),
    email: zEmail,
    phone: zText(40).optional(),
    guests: zGuests.optional(),
    notes: zText(5000).optional(),
    /** A routed submission's prefill token: its routed hosts only; the meeting keeps the answers and links the submission. */
    routing_token: zRoutingToken.optional(),
  })
  .meta({ id: 'CalendarBookRequestB', description: 'Variant B: an event type, start_time/end_time, name and email' });

/**
 * Each endpoint takes one of two variants, chosen by its keys as DESIGN.md §3 says: B when the query
 * carries start_date or end_date, or the body start_time, name or email; otherwise A. The union is
 * what the OpenAPI document shows (oneOf; the variants are strict objects, so at most one matches);
 * a bad input gets the errors of the variant its keys chose (core/validate.ts zVariants).
 */
export const isAvailabilityB = (q: object) => ['start_date', 'end_date'].some((k) => k in q);
export const isBookingB = (b: object) => ['start_time', 'name', 'email'].some((k) => k in b);
export const availabilityQuery = zVariants(availabilityQueryA, availabilityQueryB, isAvailabilityB);
export const bookBody = zVariants(bookBodyA, bookBodyB, isBookingB, 'CalendarBookRequest');
export const availabilityAnswer = z.union([zAvailabilityA, zAvailabilityB]).meta({ id: 'CalendarAvailability' });
export const bookingAnswer = z.union([zBookingA, zBookingB]).meta({ id: 'CalendarBooking' });

export const feedParams = z.strictObject({
  token: z
    .string()
    .min(8)
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+$/)
    .meta({ example: 'Zx8Qp2Lm9Rt4Vw6Yb1Nc3Df5.ics' }),
});
/** The booking page's query: `event_type` and `prefill` when opened from a routed submission; embed parameters pass through. */
export const bookingPageQuery = z.looseObject({
  event_type: z.string().max(64).optional(),
  prefill: z.string().max(200).optional(),
});
/** The no-JavaScript booking of a routed submission: `slot` is `<start>/<end>` (ISO 8601) as the page lists it. */
export const routedBookingBody = z.strictObject({
  prefill: zRoutingToken,
  event_type_id: zUuid,
  slot: z
    .string()
    .max(80)
    .regex(/^[0-9T:.Z+-]+\/[0-9T:.Z+-]+$/, { error: 'must be a time from the list' })
    .refine((v) => v.split('/').every((t) => !Number.isNaN(Date.parse(t))), { error: 'must be a time from the list' }),
  name: zText(200).min(1),
  email: zEmail,
});
export const bookingPageParams = z.strictObject({ page_slug: z.string().min(1).max(100).meta({ example: 'intro-call' }) });

/* ---- the signed attendee and host links (/booking/<token>) ---- */

export const manageParams = z.strictObject({
  token: z
    .string()
    .min(20)
    .max(120)
    .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be a link token' })
    .meta({ example: 'Zx8Qp2Lm9Rt4Vw6Yb1Nc3Df5' }),
});
export const manageQuery = z.strictObject({ date: z.iso.date({ error: 'must be a date YYYY-MM-DD' }).optional() });
export const manageBody = z.strictObject({ reason: zText(2000).optional(), start: z.iso.datetime({ offset: true }).optional() });

/** The booking page a `submit`-bucket request counts against (its own per-minute limit, docs/decisions.md). */
export function bookingTarget(b: z.infer<typeof bookBody>): string {
  if ('start_time' in b) return `event_type:${b.event_type_id}`;
  if (b.scheduling_page_id) return `page:${b.scheduling_page_id}`;
  if (b.event_type_id) return `event_type:${b.event_type_id}`;
  return `host:${b.user_id}`;
}
