import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { availabilityA, availabilityB } from '../../../services/scheduling/availability';
import { book } from '../../../services/scheduling/booking';
import { renderFeed } from '../../../services/scheduling/feed';
import { presentMeeting } from '../../../services/scheduling/present';
import { availabilityQuery, availabilityResponse, bookBody, bookingTarget, bookResponse } from './calendar.schema';

const tags = ['calendar'];

export const calendarRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/calendar/availability',
    auth: 'public',
    tags,
    summary:
      'Free slots for the booking widget (variant A: user_id, team_id, date; variant B: event_type_id, start_date, end_date, timezone)',
    query: availabilityQuery,
    response: availabilityResponse,
    rateLimit: 'availability',
    handler: async ({ query, deps }) => ('start_date' in query ? availabilityB(deps.db, query) : availabilityA(deps.db, query)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/calendar/book',
    auth: 'public',
    tags,
    status: 201,
    summary: 'Book a slot (variant A answers {success, meeting, event, meeting_link}; variant B {data: meeting}); a taken slot gets 409',
    body: bookBody,
    response: bookResponse,
    rateLimit: 'submit',
    rateLimitTarget: ({ body }) => bookingTarget(body),
    handler: async ({ body, deps }) => {
      if ('start_time' in body) {
        const b = body;
        const { meeting } = await book(deps, {
          eventTypeId: b.event_type_id,
          start: Date.parse(b.start_time),
          end: Date.parse(b.end_time),
          exactDuration: true,
          attendeeEmail: b.email,
          attendeeName: b.name,
          attendeePhone: b.phone,
          timezone: b.timezone,
          guests: b.guests ?? [],
          notes: b.notes,
          fieldValues: b.phone ? { phone: b.phone } : {},
        });
        return { data: presentMeeting(meeting) };
      }
      const a = body;
      const lead = a.lead_capture_data ?? {};
      const phone = typeof lead.phone === 'string' ? lead.phone.slice(0, 40) : undefined;
      const { meeting, event } = await book(deps, {
        teamId: a.team_id,
        userId: a.user_id,
        eventTypeId: a.event_type_id,
        pageId: a.scheduling_page_id,
        start: Date.parse(a.start),
        end: Date.parse(a.end),
        attendeeEmail: a.attendee_email,
        attendeeName: a.attendee_name,
        attendeePhone: phone,
        title: a.title,
        description: a.description,
        timezone: a.timezone ?? 'UTC',
        guests: a.guests ?? [],
        notes: a.notes,
        fieldValues: { ...lead, ...(a.custom_fields ?? {}) },
        contactCustomFields: a.custom_fields,
      });
      const m = presentMeeting(meeting);
      return {
        success: true,
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
          htmlLink: `${deps.config.baseUrl}/api/v1/meetings/${m.id}`,
        },
        meeting_link: m.meeting_link,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/calendar/feeds/:token',
    auth: 'public',
    tags,
    raw: true,
    rateLimit: 'pages',
    summary: "A host's iCalendar feed at its secret URL",
    params: z.strictObject({
      token: z
        .string()
        .min(8)
        .max(200)
        .regex(/^[A-Za-z0-9_.-]+$/),
    }),
    handler: async ({ params, ctx, deps }) => {
      ctx.set('Content-Type', 'text/calendar; charset=utf-8');
      ctx.set('Cache-Control', 'private, max-age=300');
      ctx.body = await renderFeed(deps.db, params.token);
    },
  }),
];
