import { jsonb } from '../../db/jsonb';
import type { Db } from '../../db/knex';
import type { TestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { ALL_WEEK, dateAhead } from '../helpers/open-day';

export { ALL_WEEK };

/** Make a user available around the clock, every day, in a timezone (keeps tests independent of today's weekday). */
export async function alwaysAvailable(db: Db, userId: string, timezone = 'UTC'): Promise<void> {
  await db('availability_schedules')
    .where({ user_id: userId })
    .update({ rules: jsonb(ALL_WEEK), timezone });
}

/** A published page with one event type, through the API. */
export async function publishedEventType(
  baseUrl: string,
  team: Pick<TestTeam, 'apiKey'>,
  page: Record<string, unknown> = {},
  eventType: Record<string, unknown> = {},
): Promise<{ pageId: string; slug: string; eventTypeId: string }> {
  const api = client(baseUrl, team.apiKey);
  const p = await api.post('/api/v1/scheduling-pages', { title: 'Sales calls', status: 'published', ...page });
  if (p.status !== 201) throw new Error(`page: ${p.status} ${p.text}`);
  const e = await api.post(`/api/v1/scheduling-pages/${p.body.data.id}/event-types`, { title: 'Intro call', ...eventType });
  if (e.status !== 201) throw new Error(`event type: ${e.status} ${e.text}`);
  return { pageId: p.body.data.id, slug: p.body.data.slug, eventTypeId: e.body.data.id };
}

/** The UTC date `days` after today's, as YYYY-MM-DD (for schedules open every day, like `alwaysAvailable`). */
export function dayFromNow(days: number): string {
  return dateAhead(days);
}

/**
 * Book through the public endpoint (variant A) on a new published event type, `hoursAhead` from now
 * on the hour, for 30 minutes. Answers the response as it came and the start.
 */
export async function bookHoursAhead(
  baseUrl: string,
  team: TestTeam,
  opts: { hoursAhead: number; attendeeEmail: string; eventType?: Record<string, unknown> },
) {
  const { eventTypeId } = await publishedEventType(baseUrl, team, {}, { start_time_increment: 60, ...opts.eventType });
  const startMs = Math.ceil((Date.now() + opts.hoursAhead * 3_600_000) / 3_600_000) * 3_600_000;
  const res = await client(baseUrl).post('/api/calendar/book', {
    user_id: team.userId,
    team_id: team.teamId,
    event_type_id: eventTypeId,
    attendee_email: opts.attendeeEmail,
    attendee_name: 'Ada Attendee',
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 30 * 60_000).toISOString(),
  });
  return { res, startMs };
}
