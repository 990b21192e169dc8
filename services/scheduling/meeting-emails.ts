import type { Executor } from '../../db/knex';
import type { Mailer } from '../../core/mailer';
import { cancelIcs, icalUidOf, inviteIcs, type IcsMeeting } from '../../domain/ics';
import { meetingLinkUrls } from './links';
import type { MeetingRow } from './present';
import type { ServiceDeps } from '../deps';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';

/**
 * Who hears about a meeting, and what each one is sent (docs/scheduling.md "Lifecycle"): every
 * party (attendee, guests, host, group co-hosts) gets each invite, update, reminder and CANCEL as
 * its own message; only the attendee's carries the cancel and reschedule links, only the host's
 * request carries the confirm and decline links.
 */
export type MeetingEmailKind = 'confirmation' | 'update' | 'reminder_24h' | 'reminder_1h' | 'request_received' | 'confirm_request';

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

const SUBJECTS: Record<MeetingEmailKind, string> = {
  confirmation: 'Confirmed',
  update: 'Moved',
  reminder_24h: 'Reminder (tomorrow)',
  reminder_1h: 'Reminder (in 1 hour)',
  request_received: 'Request received, pending confirmation',
  confirm_request: 'Please confirm',
};

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

function when(start: Date, timezone: string): string {
  return `${start.toLocaleString('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'short' })} (${timezone})`;
}

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
  const whenText = when(new Date(m.start_time), m.timezone);
  const subject = `${SUBJECTS[kind]}: ${m.title} on ${whenText}`;
  const details = `${m.title}\nWhen: ${whenText}\n${m.meeting_link ? `Where: ${m.meeting_link}\n` : ''}`;
  const manage = `\nNeed to change something?\nReschedule: ${links.reschedule}\nCancel: ${links.cancel}\n`;
  const headers = { 'X-Meeting-Id': m.id, 'X-Meeting-Email': kind };
  const send = (to: Person, text: string, subj = subject, attachments: Array<Record<string, string>> = []) =>
    mailer.send({ to: to.email, subject: subj, text, attachments, headers });

  if (kind === 'request_received') {
    await send(p.attendee, `${details}\nThe host has been asked to confirm this time. You will get the confirmation by email.\n${manage}`);
    return;
  }
  if (kind === 'confirm_request') {
    const text = `${m.attendee_name} <${m.attendee_email}> asked for:\n${details}\nConfirm: ${links.confirm}\nDecline: ${links.decline}\n\nUnconfirmed requests lapse an hour before the start.\n`;
    await send(p.host, text, `${subject} with ${m.attendee_name}`);
    return;
  }
  const invite = kind === 'confirmation' || kind === 'update';
  const movedNote = kind === 'update' ? 'The meeting has moved to a new time.\n' : '';
  const attach = (description: string) =>
    invite
      ? [
          {
            filename: 'invite.ics',
            content: inviteIcs(icsOf(m, p, m.ical_sequence, description)),
            contentType: 'text/calendar; method=REQUEST; charset=utf-8',
          },
        ]
      : [];
  await send(p.attendee, `${movedNote}${details}${manage}`, subject, attach(`${m.description ?? ''}${manage}`.trim()));
  for (const g of p.guests) await send(g, `${movedNote}${details}`, subject, attach(m.description ?? ''));
  for (const h of [p.host, ...p.coHosts])
    await send(h, `${movedNote}${details}`, `${subject} with ${m.attendee_name}`, attach(m.description ?? ''));
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
  const lapsed = input.reason === 'not confirmed';
  const whenText = when(new Date(input.startTime), input.timezone ?? 'UTC');
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
  const text = lapsed
    ? `Your request for ${input.title} on ${whenText} was not confirmed by the host in time, so it has lapsed.\nYou can book another time.`
    : `${input.title} on ${whenText} has been cancelled.${input.reason ? `\nReason: ${input.reason}` : ''}`;
  const recipients = input.invited ? everyone(p) : [p.attendee];
  for (const to of recipients) {
    await mailer.send({ to: to.email, subject: `${lapsed ? 'Not confirmed' : 'Cancelled'}: ${input.title}`, text, attachments, headers });
  }
}
