import { DateTime } from 'luxon';
import type { ServiceDeps } from '../deps';
import { notFound } from '../../core/errors';
import { computeSlots } from '../../domain/slots';
import type { LinkPurpose } from '../../domain/link-tokens';
import { limitedEventType } from './booking-limits';
import { resolveContext } from './context';
import { loadHostSchedules } from './host-schedules';
import { readLinkToken } from './links';
import { updateMeeting } from './meetings';
import type { MeetingRow } from '../meetings/row';
import { MOVABLE_STATUSES } from './reschedule-steps';
import { rescheduleMeeting } from './reschedule';

/**
 * What a signed link (`/booking/<token>`) may do: the attendee cancels or reschedules, the host
 * confirms or declines a request. The token names the meeting and one purpose; the meeting's
 * current state decides whether that purpose still applies.
 */
export interface OpenedLink {
  purpose: LinkPurpose;
  meeting: MeetingRow;
  hostName: string;
  /** Why the action no longer applies (the page says so), or null when it does. */
  closedReason: string | null;
}

const WHO_ACTS: Record<LinkPurpose, string[]> = {
  cancel: ['scheduled', 'pending_confirmation'],
  reschedule: MOVABLE_STATUSES,
  confirm: ['pending_confirmation'],
  decline: ['pending_confirmation'],
};

function closedReason(purpose: LinkPurpose, m: MeetingRow, now: number): string | null {
  if (new Date(m.end_time).getTime() <= now) return 'This meeting is over.';
  if (WHO_ACTS[purpose].includes(m.status)) return null;
  if (m.status === 'rescheduled') return 'This meeting was moved to another time; use the links in the latest email.';
  if (m.status === 'cancelled') return 'This meeting is cancelled.';
  if (m.status === 'scheduled') return 'This request is already confirmed.';
  return `This meeting is ${m.status.replace('_', ' ')}.`;
}

/** The meeting behind a link, or null when the token is unknown, forged or expired, or the meeting is gone. */
export async function openLink(deps: ServiceDeps, input: { token: string; now?: number }): Promise<OpenedLink | null> {
  const { token, now = Date.now() } = input;
  const claims = await readLinkToken(deps, { token, now });
  if (!claims) return null;
  const meeting: MeetingRow | undefined = await deps.db('meetings').where({ id: claims.meetingId }).first();
  if (!meeting) return null;
  const host = await deps.db('users').where({ id: meeting.host_user_id }).first('name', 'email');
  return {
    purpose: claims.purpose,
    meeting,
    hostName: host?.name ?? host?.email ?? 'your host',
    closedReason: closedReason(claims.purpose, meeting, now),
  };
}

/** Free starts for moving the meeting on one local date (the meeting's own time does not block). */
export async function rescheduleSlots(deps: ServiceDeps, input: { meeting: MeetingRow; date: string; now?: number }): Promise<number[]> {
  const { meeting: m, date, now = Date.now() } = input;
  const day = DateTime.fromISO(date, { zone: m.timezone });
  if (!day.isValid) return [];
  const from = day.startOf('day').toMillis();
  const to = day.plus({ days: 1 }).startOf('day').toMillis();
  const ctx = await resolveContext(deps.db, {
    teamId: m.team_id,
    userId: m.host_user_id,
    eventTypeId: m.event_type_id ?? undefined,
    pageId: m.scheduling_page_id ?? undefined,
    duration: Math.round((new Date(m.end_time).getTime() - new Date(m.start_time).getTime()) / 60_000),
  });
  const hosts = await loadHostSchedules(deps.db, {
    hostIds: ctx.hostIds,
    from,
    to,
    limitedEventTypeId: limitedEventType(ctx),
    excludeMeetingId: m.id,
  });
  return computeSlots(hosts, { ...ctx.rules, rangeStart: from, rangeEnd: to, now, mode: ctx.mode }).map((s) => s.start);
}

export type LinkAction =
  | { purpose: 'cancel'; reason?: string }
  | { purpose: 'decline'; reason?: string }
  | { purpose: 'confirm' }
  | { purpose: 'reschedule'; start: number };

/** Carry out a link's action through the same use cases as the API (transitions, cleanup, emails). */
export async function actOnLink(deps: ServiceDeps, input: { link: OpenedLink; action: LinkAction }): Promise<MeetingRow> {
  const { link, action } = input;
  const m = link.meeting;
  if (action.purpose === 'reschedule')
    return (await rescheduleMeeting(deps, { meetingId: m.id, teamId: m.team_id, start: action.start })).meeting;
  if (action.purpose === 'confirm') await updateMeeting(deps, { teamId: m.team_id, id: m.id, changes: { status: 'scheduled' } });
  else {
    const reason = action.reason?.trim() || (action.purpose === 'decline' ? 'declined by the host' : 'cancelled by the attendee');
    await updateMeeting(deps, { teamId: m.team_id, id: m.id, changes: { status: 'cancelled', cancellation_reason: reason } });
  }
  const after = await deps.db('meetings').where({ id: m.id }).first();
  if (!after) throw notFound('Meeting');
  return after;
}
