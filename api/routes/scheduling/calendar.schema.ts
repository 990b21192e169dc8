import { z } from 'zod';
import { chosenUnion, zIanaZone, zText, zTimestamp, zUuid } from '../../../core/validate';

/**
 * Request and response shapes of the public calendar endpoints. Each has two variants (DESIGN.md
 * §3): variant B when the request carries start_date/end_date (availability) or
 * start_time/name/email (booking), else variant A. The OpenAPI document shows them as oneOf.
 */
const zDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date YYYY-MM-DD' });
const zDuration = z
  .string()
  .regex(/^\d+$/, { error: 'must be a whole number of minutes' })
  .transform(Number)
  .pipe(z.number().int().min(5).max(720));
const zEmail = z.email({ error: 'must be an email address' }).max(254);
const zGuests = z.array(zEmail).max(20);
const zObject = z.record(z.string().max(100), z.unknown());

const hasAny = (o: Record<string, unknown>, keys: string[]) => keys.some((k) => k in o);

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
  .meta({ title: 'Availability query, variant A (one day of a host)' });
export const availabilityQueryB = z
  .strictObject({ event_type_id: zUuid, start_date: zDate, end_date: zDate, timezone: zIanaZone })
  .meta({ title: 'Availability query, variant B (a date range of an event type)' });
export const availabilityQuery = chosenUnion([availabilityQueryA, availabilityQueryB], (q) =>
  hasAny(q, ['start_date', 'end_date']) ? availabilityQueryB : availabilityQueryA,
);

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
  .meta({ title: 'Booking, variant A (host, start, end, attendee_email)' });
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
  })
  .meta({ title: 'Booking, variant B (event type, start_time, end_time, name, email)' });
export const bookBody = chosenUnion([bookBodyA, bookBodyB], (b) => (hasAny(b, ['start_time', 'name', 'email']) ? bookBodyB : bookBodyA));

/** The per-target key of the booking rate limit: the page, else the event type, else the host the request names. */
export function bookingTarget(b: z.infer<typeof bookBody>): string {
  if ('start_time' in b) return `event_type:${b.event_type_id}`;
  if (b.scheduling_page_id) return `page:${b.scheduling_page_id}`;
  if (b.event_type_id) return `event_type:${b.event_type_id}`;
  return `host:${b.user_id}`;
}

const slot = (start: z.ZodType) =>
  z.object({ start, end: start, round_robin: z.literal(true).optional(), available_host_count: z.number().int().optional() });

export const availabilityResponse = z.union([
  z
    .object({ date: z.string(), duration: z.number().int(), timezone: z.string(), available_slots: z.array(slot(z.iso.datetime())) })
    .meta({ title: 'Availability, variant A' }),
  z
    .object({
      data: z.object({
        slots: z.array(slot(z.iso.datetime({ offset: true }))),
        timezone: z.string(),
        event_type: z.object({ id: z.uuid(), title: z.string(), duration_minutes: z.number().int() }),
      }),
    })
    .meta({ title: 'Availability, variant B' }),
]);

const meetingCore = {
  id: z.uuid(),
  event_type_id: z.uuid().nullable(),
  scheduling_page_id: z.uuid().nullable(),
  host_user_id: z.uuid(),
  contact_id: z.uuid().nullable(),
  start_time: z.string(),
  end_time: z.string(),
  status: z.string(),
  meeting_link: z.string().nullable(),
  timezone: z.string(),
  created_at: z.string(),
};

export const bookResponse = z.union([
  z
    .object({
      success: z.literal(true),
      meeting: z.object(meetingCore),
      event: z.object({ id: z.string(), summary: z.string(), start: z.string(), end: z.string(), htmlLink: z.string() }),
      meeting_link: z.string().nullable(),
    })
    .meta({ title: 'Booked, variant A' }),
  z.object({ data: z.object(meetingCore).loose() }).meta({ title: 'Booked, variant B (the meeting)' }),
]);
