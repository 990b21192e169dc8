import { defineRoute } from '../../http/route';
import { serverCallerOf } from '../../http/server-caller';
import { availabilityA, availabilityB } from '../../../services/scheduling/availability';
import { bookAndAnswer } from '../../../services/scheduling/booking-answer';
import { renderFeed } from '../../../services/scheduling/feed';
import { presentBookingA, presentMeeting } from '../../../services/scheduling/present';
import {
  availabilityAnswer,
  availabilityQuery,
  bookBody,
  bookingAnswer,
  feedParams,
  isAvailabilityB,
  isBookingB,
  bookingTarget,
} from './schema';

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
    response: availabilityAnswer,
    rateLimit: 'availability',
    handler: ({ query, deps }) => {
      if (isAvailabilityB(query) && 'start_date' in query) {
        return availabilityB(deps, {
          eventTypeId: query.event_type_id,
          startDate: query.start_date,
          endDate: query.end_date,
          timezone: query.timezone,
          routingToken: query.routing_token,
        });
      }
      if ('user_id' in query) {
        return availabilityA(deps, {
          userId: query.user_id,
          teamId: query.team_id,
          date: query.date,
          duration: query.duration,
          timezone: query.timezone,
          eventTypeId: query.event_type_id,
          pageId: query.scheduling_page_id,
        });
      }
      throw new Error('unreachable: the query parsed as neither variant');
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/calendar/book',
    auth: 'public',
    tags,
    status: 201,
    summary: 'Book a slot (variant A answers {success, meeting, event, meeting_link}; variant B {data: meeting}); a taken slot gets 409',
    body: bookBody,
    response: bookingAnswer,
    rateLimit: 'submit',
    rateLimitTarget: ({ body }) => bookingTarget(body),
    conflict: '`slot_unavailable`: the slot was taken meanwhile (no host is free at that time)',
    handler: async ({ body: b, deps, ctx }) => {
      const callerTeamId = serverCallerOf(ctx)?.teamId;
      if (isBookingB(b) && 'start_time' in b) {
        const { meeting, event } = await bookAndAnswer(deps, {
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
          routingToken: b.routing_token,
          callerTeamId,
        });
        return { data: presentMeeting(meeting, event.htmlLink) };
      }
      if (!('start' in b)) throw new Error('unreachable: the body parsed as neither variant');
      const lead = b.lead_capture_data ?? {};
      const phone = typeof lead.phone === 'string' ? lead.phone.slice(0, 40) : undefined;
      const { meeting, event } = await bookAndAnswer(deps, {
        teamId: b.team_id,
        userId: b.user_id,
        eventTypeId: b.event_type_id,
        pageId: b.scheduling_page_id,
        start: Date.parse(b.start),
        end: Date.parse(b.end),
        attendeeEmail: b.attendee_email,
        attendeeName: b.attendee_name,
        attendeePhone: phone,
        title: b.title,
        description: b.description,
        timezone: b.timezone ?? 'UTC',
        guests: b.guests ?? [],
        notes: b.notes,
        fieldValues: { ...lead, ...(b.custom_fields ?? {}) },
        contactCustomFields: b.custom_fields,
        callerTeamId,
      });
      // The provider's event once the worker wrote it in time, else our own and the meeting's .ics link
      // (services/scheduling/booking-answer.ts); never the host's feed (every meeting of the host).
      return presentBookingA(meeting, event);
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
    params: feedParams,
    response: { mediaType: 'text/calendar', description: 'The iCalendar (RFC 5545) feed of the host’s meetings' },
    handler: async ({ params, ctx, deps }) => {
      ctx.set('Content-Type', 'text/calendar; charset=utf-8');
      ctx.set('Cache-Control', 'private, max-age=300');
      ctx.body = await renderFeed(deps, { token: params.token });
    },
  }),
];
