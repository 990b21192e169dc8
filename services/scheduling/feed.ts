import { randomToken, sha256Hex } from '../../core/crypto';
import type { Db } from '../../db/knex';
import { feedIcs, icalUidOf, type IcsMeeting } from '../../domain/ics';
import { notFound } from '../../core/errors';

const FEED_PREFIX = 'cal_';

/** Create or rotate the host's secret feed URL. The token is shown in this response only. */
export async function rotateFeed(db: Db, baseUrl: string, teamId: string, userId: string) {
  const user = await db('users').where({ id: userId, team_id: teamId }).first('id');
  if (!user) throw notFound('User');
  const token = `${FEED_PREFIX}${randomToken(24)}`;
  await db('calendar_feeds')
    .insert({ user_id: userId, team_id: teamId, token_hash: sha256Hex(token) })
    .onConflict('user_id')
    .merge({ token_hash: sha256Hex(token), updated_at: db.fn.now() });
  return { user_id: userId, url: `${baseUrl}/api/calendar/feeds/${token}.ics` };
}

/**
 * The feed: the host's meetings (as primary or group host) from 30 days back, cancelled ones as
 * CANCELLED. A rescheduled meeting is left out: the meeting that replaced it carries its UID with a
 * higher SEQUENCE, so the event moves instead of appearing twice.
 */
export async function renderFeed(db: Db, token: string): Promise<string> {
  const clean = token.replace(/\.ics$/, '');
  const feed = await db('calendar_feeds')
    .where({ token_hash: sha256Hex(clean) })
    .first();
  if (!feed) throw notFound('Calendar feed');
  const user = await db('users').where({ id: feed.user_id }).first('id', 'email', 'name');
  if (!user) throw notFound('Calendar feed');
  const rows = await db('meeting_hosts as mh')
    .join('meetings as m', 'm.id', 'mh.meeting_id')
    .where('mh.host_user_id', feed.user_id)
    .where('m.start_time', '>', new Date(Date.now() - 30 * 86_400_000))
    .whereNot('m.status', 'rescheduled')
    .orderBy('m.start_time')
    .select('m.*');
  const events: IcsMeeting[] = rows.map((m: Record<string, any>) => ({
    uid: icalUidOf({ id: m.id, ical_uid: m.ical_uid }),
    sequence: (m.ical_sequence ?? 0) + (m.status === 'cancelled' ? 1 : 0),
    summary: m.title,
    description: m.description,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    location: m.meeting_link,
    url: m.meeting_link,
    organizer: { name: user.name ?? user.email, email: user.email },
    attendees: [{ name: m.attendee_name, email: m.attendee_email }, ...(m.guests as string[]).map((g) => ({ email: g }))],
    status: m.status === 'cancelled' ? 'cancelled' : m.status === 'pending_confirmation' ? 'tentative' : 'confirmed',
  }));
  return feedIcs(`Meetings of ${user.name ?? user.email}`, events);
}
