import { sha256Hex } from '../../core/crypto';
import type { Role } from '../../core/scopes';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { feedIcs, icalUidOf, type IcsMeeting } from '../../domain/ics';
import { signEventToken, signFeedToken, verifyEventToken, verifyFeedToken } from '../../domain/link-tokens';
import { ApiError, notFound } from '../../core/errors';
import { appSecret } from '../app-secrets';
import type { MeetingRow } from '../meetings/row';

/**
 * iCalendar links that open without a login (docs/scheduling.md "Links the host can open"):
 * - a host's feed, `/api/calendar/feeds/calh_….ics`: every meeting of the host. Its token is derived
 *   (HMAC of the user and the feed's generation, key `calendar_links` in app_secrets), so the API can
 *   show it again on the host's meetings; rotating bumps the generation, which kills every earlier
 *   URL. Random `cal_…` tokens made before that still work (by their stored hash) until a rotation.
 * - one meeting's event, `/api/calendar/feeds/calm_….ics`: that meeting alone (followed to the
 *   meeting that replaced it when it was rescheduled). It is what public answers link to: it shows
 *   the booker nothing they did not book.
 */
const SECRET = 'calendar_links';
const feedUrl = (baseUrl: string, token: string) => `${baseUrl}/api/calendar/feeds/${token}.ics`;

async function generationOf(db: Executor, userId: string): Promise<number> {
  const row = await db('calendar_feeds').where({ user_id: userId }).first('generation');
  return (row?.generation as number | undefined) ?? 0;
}

/** The host's current feed URL (valid until the next rotation). */
export async function hostFeedUrl(deps: Pick<ServiceDeps, 'db' | 'config'>, input: { userId: string }): Promise<string> {
  const { db } = deps;
  const { baseUrl } = deps.config;
  const { userId } = input;
  const key = await appSecret({ db }, { name: SECRET });
  return feedUrl(baseUrl, signFeedToken(key, userId, await generationOf(db, userId)));
}

/** One meeting's own .ics link. */
export async function meetingEventUrl(deps: Pick<ServiceDeps, 'db' | 'config'>, input: { meetingId: string }): Promise<string> {
  const { db } = deps;
  const { baseUrl } = deps.config;
  const { meetingId } = input;
  return feedUrl(baseUrl, signEventToken(await appSecret({ db }, { name: SECRET }), meetingId));
}

/**
 * Where the host opens a meeting (the meeting's `calendar_link`, for the team's own API): the event
 * on their calendar server once the write-back put it there, else their feed.
 */
export async function hostCalendarLink(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { meeting: Pick<MeetingRow, 'id' | 'host_user_id'> },
): Promise<string> {
  const { db } = deps;
  const { meeting: m } = input;
  const written = await db('meeting_calendar_writes')
    .where({ meeting_id: m.id, state: 'written' })
    .whereNotNull('html_url')
    .first('html_url');
  return (written?.html_url as string | undefined) ?? hostFeedUrl(deps, { userId: m.host_user_id });
}

export interface RotateFeedInput {
  teamId: string;
  userId: string;
  /** Who asks: a member rotates only its own feed (the URL shows every meeting of its host). */
  actor: { userId: string; role: Role };
}

/** Create or rotate the host's secret feed URL: a new generation, every earlier URL stops working. */
export async function rotateFeed(deps: Pick<ServiceDeps, 'db' | 'config'>, input: RotateFeedInput) {
  const { db } = deps;
  const { baseUrl } = deps.config;
  const { teamId, userId, actor } = input;
  if (actor.role === 'member' && userId !== actor.userId) {
    throw new ApiError(403, 'forbidden', "A member creates only its own feed URL; owners and admins create anyone's");
  }
  const user = await db('users').where({ id: userId, team_id: teamId }).whereNull('removed_at').first('id');
  if (!user) throw notFound('User');
  const key = await appSecret({ db }, { name: SECRET });
  const url = await db.transaction(async (trx) => {
    const current = await trx('calendar_feeds').where({ user_id: userId }).forUpdate().first('generation');
    const generation = current ? (current.generation as number) + 1 : 1;
    const token = signFeedToken(key, userId, generation);
    await trx('calendar_feeds')
      .insert({ user_id: userId, team_id: teamId, token_hash: sha256Hex(token), generation })
      .onConflict('user_id')
      .merge({ token_hash: sha256Hex(token), generation, updated_at: trx.fn.now() });
    return feedUrl(baseUrl, token);
  });
  return { user_id: userId, url };
}

type Host = { email: string; name: string | null };

function icsOf(m: Record<string, any>, host: Host): IcsMeeting {
  return {
    uid: icalUidOf({ id: m.id, ical_uid: m.ical_uid }),
    sequence: (m.ical_sequence ?? 0) + (m.status === 'cancelled' ? 1 : 0),
    summary: m.title,
    description: m.description,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    location: m.meeting_link,
    url: m.meeting_link,
    organizer: { name: host.name ?? host.email, email: host.email },
    attendees: [{ name: m.attendee_name, email: m.attendee_email }, ...(m.guests as string[]).map((g) => ({ email: g }))],
    status: m.status === 'cancelled' ? 'cancelled' : m.status === 'pending_confirmation' ? 'tentative' : 'confirmed',
  };
}

/** The user a host feed token names, when it is valid: derived for the current generation, or a stored (older) token. */
async function feedOwner(db: Executor, token: string): Promise<string | null> {
  const derived = verifyFeedToken(await appSecret({ db }, { name: SECRET }), token);
  if (derived) {
    return derived.generation === (await generationOf(db, derived.userId)) ? derived.userId : null;
  }
  const feed = await db('calendar_feeds')
    .where({ token_hash: sha256Hex(token) })
    .first('user_id');
  return (feed?.user_id as string | undefined) ?? null;
}

/**
 * The feed: the host's meetings (as primary or group host) from 30 days back, cancelled ones as
 * CANCELLED. A rescheduled meeting is left out: the meeting that replaced it carries its UID with a
 * higher SEQUENCE, so the event moves instead of appearing twice. A `calm_` token gives that one
 * meeting's calendar instead.
 */
export async function renderFeed(deps: Pick<ServiceDeps, 'db'>, input: { token: string }): Promise<string> {
  const { db } = deps;
  const { token } = input;
  const clean = token.replace(/\.ics$/, '');
  const event = verifyEventToken(await appSecret({ db }, { name: SECRET }), clean);
  if (event) return renderEvent(db, event.meetingId);
  const userId = await feedOwner(db, clean);
  const user: (Host & { id: string }) | undefined = userId
    ? await db('users').where({ id: userId }).whereNull('removed_at').first('id', 'email', 'name') // a removed member's feed is gone
    : undefined;
  if (!user) throw notFound('Calendar feed');
  const rows = await db('meeting_hosts as mh')
    .join('meetings as m', 'm.id', 'mh.meeting_id')
    .where('mh.host_user_id', user.id)
    .where('m.start_time', '>', new Date(Date.now() - 30 * 86_400_000))
    .whereNot('m.status', 'rescheduled')
    .orderBy('m.start_time')
    .select('m.*');
  return feedIcs(
    `Meetings of ${user.name ?? user.email}`,
    rows.map((m: Record<string, any>) => icsOf(m, user)),
  );
}

async function renderEvent(db: Executor, meetingId: string): Promise<string> {
  let m: MeetingRow | undefined = await db('meetings').where({ id: meetingId }).first();
  for (let hops = 0; m?.status === 'rescheduled' && m.rescheduled_to_id && hops < 20; hops++) {
    m = await db('meetings').where({ id: m.rescheduled_to_id }).first();
  }
  if (!m) throw notFound('Calendar feed');
  const host: Host | undefined = await db('users').where({ id: m.host_user_id }).first('email', 'name');
  return feedIcs(m.title, [icsOf(m, host ?? { email: 'unknown@localhost', name: null })]);
}
