/**
 * The meeting emails' wording (docs/scheduling.md "Lifecycle"): what the attendee, each guest and
 * each host is sent for one kind of email. Only the attendee's carries the cancel and reschedule
 * links; only the host's request carries the confirm and decline links. The sending (who, with
 * which .ics) is services/scheduling/meeting-emails.ts.
 */
export type MeetingEmailKind = 'confirmation' | 'update' | 'reminder_24h' | 'reminder_1h' | 'request_received' | 'confirm_request';

export interface RenderedText {
  subject: string;
  text: string;
}

/** One recipient's message, and the DESCRIPTION of the .ics it carries (when it carries one). */
export interface MeetingMail extends RenderedText {
  icsDescription: string;
}

export interface MeetingMailFacts {
  title: string;
  start: Date;
  timezone: string;
  meetingLink: string | null;
  description: string | null;
  attendeeName: string;
  attendeeEmail: string;
  /** The event type has AI notes on: the confirmation says the meeting is recorded and summarised. */
  recorded?: boolean;
}

/** Said in the confirmation (and the update) when the event type has AI notes on (docs/scheduling.md "After the meeting"). */
export const RECORDING_NOTICE =
  'This meeting will be recorded and transcribed, and a summary with action items will be written from the transcript.\n';

export interface MeetingLinks {
  cancel: string;
  reschedule: string;
  confirm: string;
  decline: string;
}

const SUBJECTS: Record<MeetingEmailKind, string> = {
  confirmation: 'Confirmed',
  update: 'Moved',
  reminder_24h: 'Reminder (tomorrow)',
  reminder_1h: 'Reminder (in 1 hour)',
  request_received: 'Request received, pending confirmation',
  confirm_request: 'Please confirm',
};

/** The start in the meeting's time zone, e.g. "Monday 2 March 2026 at 09:00 (Europe/Berlin)". */
export function meetingWhen(start: Date, timezone: string): string {
  return `${start.toLocaleString('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'short' })} (${timezone})`;
}

/** The messages of one kind: a role missing from the answer is sent nothing. */
export function renderMeetingMails(
  kind: MeetingEmailKind,
  m: MeetingMailFacts,
  links: MeetingLinks,
): { attendee?: MeetingMail; guest?: MeetingMail; host?: MeetingMail } {
  const whenText = meetingWhen(m.start, m.timezone);
  const subject = `${SUBJECTS[kind]}: ${m.title} on ${whenText}`;
  const details = `${m.title}\nWhen: ${whenText}\n${m.meetingLink ? `Where: ${m.meetingLink}\n` : ''}`;
  const manage = `\nNeed to change something?\nReschedule: ${links.reschedule}\nCancel: ${links.cancel}\n`;
  const description = m.description ?? '';
  if (kind === 'request_received') {
    const text = `${details}\nThe host has been asked to confirm this time. You will get the confirmation by email.\n${manage}`;
    return { attendee: { subject, text, icsDescription: description } };
  }
  if (kind === 'confirm_request') {
    const text = `${m.attendeeName} <${m.attendeeEmail}> asked for:\n${details}\nConfirm: ${links.confirm}\nDecline: ${links.decline}\n\nUnconfirmed requests lapse an hour before the start.\n`;
    return { host: { subject: `${subject} with ${m.attendeeName}`, text, icsDescription: description } };
  }
  const movedNote =
    (kind === 'update' ? 'The meeting has moved to a new time.\n' : '') +
    (m.recorded && (kind === 'confirmation' || kind === 'update') ? RECORDING_NOTICE : '');
  return {
    attendee: { subject, text: `${movedNote}${details}${manage}`, icsDescription: `${description}${manage}`.trim() },
    guest: { subject, text: `${movedNote}${details}`, icsDescription: description },
    host: { subject: `${subject} with ${m.attendeeName}`, text: `${movedNote}${details}`, icsDescription: description },
  };
}

/** The cancellation (or, for a request never confirmed, its lapse), the same to everyone. */
export function cancellationMail(opts: { title: string; start: Date; timezone: string; reason: string | null | undefined }): RenderedText {
  const lapsed = opts.reason === 'not confirmed';
  const whenText = meetingWhen(opts.start, opts.timezone);
  const text = lapsed
    ? `Your request for ${opts.title} on ${whenText} was not confirmed by the host in time, so it has lapsed.\nYou can book another time.`
    : `${opts.title} on ${whenText} has been cancelled.${opts.reason ? `\nReason: ${opts.reason}` : ''}`;
  return { subject: `${lapsed ? 'Not confirmed' : 'Cancelled'}: ${opts.title}`, text };
}
