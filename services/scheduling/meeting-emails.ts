import type { Executor } from '../../db/knex';
import type { Mailer } from '../../core/mailer';
import { cancelIcs, icalUidOf, inviteIcs, type IcsMeeting } from '../../domain/ics';
import { cancellationMail, renderMeetingMails, type MeetingEmailKind, type MeetingMail } from '../mail/render/scheduling';
import { meetingLinkUrls } from './links';
import type { MeetingRow } from '../meetings/row';
import type { ServiceDeps } from '../deps';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';

export type { MeetingEmailKind } from '../mail/render/scheduling';

/**
 * Who hears about a meeting (docs/scheduling.md "Lifecycle"): every party (attendee, guests, host,
 * group co-hosts) gets each invite, update, reminder and CANCEL as its own message. The wording is
 * services/mail/render/scheduling.ts.
 */

export interface Person {
  name: string;
  email: string;
}

export interface Parties {
  host: Person;
  attendee: Person;
  guests: Person[];
  coHosts: Person[];
}

async function people(db: Executor, ids: string[]): Promise<Person[]> {
  if (!ids.length) return [];
  const rows: Array<{ id: string; name: string | null; email: string }> = await db('users')
    .whereIn('id', ids)
    .select('id', 'name', 'email');
  return ids.flatMap((id) => rows.filter((r) => r.id === id).map((r) => ({ name: r.name ?? r.email, email: r.email })));
}

/** The meeting's parties; `coHostIds` when the meeting's host rows are already gone (a cancellation's snapshot). */
export async function partiesOf(
  db: Executor,
  input: {
    meeting: { id: string; host_user_id: string; attendee_name: string; attendee_email: string; guests: string[] };
    coHostIds?: string[];
  },
): Promise<Parties> {
  const { meeting: m, coHostIds } = input;
  const others =
    coHostIds ?? (await db('meeting_hosts').where({ meeting_id: m.id }).whereNot({ host_user_id: m.host_user_id }).pluck('host_user_id'));
  const [host] = await people(db, [m.host_user_id]);
  return {
    host: host ?? { name: 'Host', email: 'unknown@localhost' },
    attendee: { name: m.attendee_name, email: m.attendee_email },
    guests: m.guests.map((email) => ({ name: email, email })),
    coHosts: await people(db, others),
  };
}

export const everyone = (p: Parties): Person[] => [p.attendee, ...p.guests, p.host, ...p.coHosts];

function icsOf(m: MeetingRow, p: Parties, sequence: number, description: string | null): IcsMeeting {
  return {
    uid: icalUidOf(m),
    sequence,
    summary: m.title,
    description,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    location: m.meeting_link,
    url: m.meeting_link && /^https?:/.test(m.meeting_link) ? m.meeting_link : null,
    organizer: p.host,
    attendees: [p.attendee, ...p.guests, ...p.coHosts],
    status: 'confirmed',
  };
}

/** The emails of one kind for a meeting: one message per recipient. */
export async function sendMeetingEmails(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { mailer: Mailer; meeting: MeetingRow; kind: MeetingEmailKind },
): Promise<void> {
  const { db } = deps;
  const { mailer, meeting: m, kind } = input;
  const p = await partiesOf(db, { meeting: m });
  const links = await meetingLinkUrls(deps, { meeting: m });
  const et = m.event_type_id ? await db('event_types').where({ id: m.event_type_id }).first('ai_notes_enabled') : undefined;
  const mails = renderMeetingMails(
    kind,
    {
      title: m.title,
      start: new Date(m.start_time),
      timezone: m.timezone,
      meetingLink: m.meeting_link,
      description: m.description,
      attendeeName: m.attendee_name,
      attendeeEmail: m.attendee_email,
      recorded: et?.ai_notes_enabled === true,
    },
    links,
  );
  const headers = { 'X-Meeting-Id': m.id, 'X-Meeting-Email': kind };
  const invite = kind === 'confirmation' || kind === 'update';
  const send = (to: Person, mail: MeetingMail) =>
    mailer.send({
      to: to.email,
      subject: mail.subject,
      text: mail.text,
      attachments: invite
        ? [
            {
              filename: 'invite.ics',
              content: inviteIcs(icsOf(m, p, m.ical_sequence, mail.icsDescription)),
              contentType: 'text/calendar; method=REQUEST; charset=utf-8',
            },
          ]
        : [],
      headers,
    });
  if (mails.attendee) await send(p.attendee, mails.attendee);
  if (mails.guest) for (const g of p.guests) await send(g, mails.guest);
  if (mails.host) for (const h of [p.host, ...p.coHosts]) await send(h, mails.host);
}

/** The CANCEL, to everyone who was invited (only the attendee when the request was never confirmed). */
export async function sendCancellationEmails(
  deps: Pick<ServiceDeps, 'db'>,
  input: CleanupWorkflowInput & { mailer: Mailer },
): Promise<void> {
  const { db } = deps;
  const { mailer } = input;
  const snapshot = {
    id: input.meetingId,
    host_user_id: input.hostUserId,
    attendee_name: input.attendeeName,
    attendee_email: input.attendeeEmail,
    guests: input.guests ?? [],
  };
  const p = await partiesOf(db, { meeting: snapshot, coHostIds: input.coHostUserIds ?? [] });
  const ics = cancelIcs({
    uid: input.icalUid ?? icalUidOf({ id: input.meetingId, ical_uid: null }),
    sequence: (input.icalSequence ?? 0) + 1,
    summary: input.title,
    start: new Date(input.startTime),
    end: new Date(input.endTime),
    location: input.meetingLink,
    organizer: p.host,
    attendees: [p.attendee, ...p.guests, ...p.coHosts],
    status: 'cancelled',
  });
  const attachments = [{ filename: 'cancel.ics', content: ics, contentType: 'text/calendar; method=CANCEL; charset=utf-8' }];
  const headers = { 'X-Meeting-Id': input.meetingId, 'X-Meeting-Email': 'cancellation' };
  const mail = cancellationMail({
    title: input.title,
    start: new Date(input.startTime),
    timezone: input.timezone ?? 'UTC',
    reason: input.reason,
  });
  const recipients = input.invited ? everyone(p) : [p.attendee];
  for (const to of recipients) {
    await mailer.send({ to: to.email, ...mail, attachments, headers });
  }
}
