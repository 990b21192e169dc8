// The pure renderers of services/mail/render/: which role gets which links, and the one link builder.
import { mailHost, publicUrl } from '../../services/mail/render/links';
import { cancellationMail, renderMeetingMails, type MeetingMailFacts } from '../../services/mail/render/scheduling';

const facts: MeetingMailFacts = {
  title: 'Intro call',
  start: new Date('2030-03-04T09:00:00Z'),
  timezone: 'Europe/Berlin',
  meetingLink: 'https://video.example/abc',
  description: 'Agenda',
  attendeeName: 'Ada',
  attendeeEmail: 'ada@example.com',
};
const links = {
  cancel: 'https://app.example/booking/c',
  reschedule: 'https://app.example/booking/r',
  confirm: 'https://app.example/booking/y',
  decline: 'https://app.example/booking/n',
};

describe('mail render', () => {
  test('publicUrl joins the base URL and the path; mailHost is its host name', () => {
    expect(publicUrl({ baseUrl: 'https://app.example' }, '/u/abc')).toBe('https://app.example/u/abc');
    expect(mailHost({ baseUrl: 'https://app.example:8443' })).toBe('app.example');
  });

  test('a confirmation: only the attendee gets the manage links, the host’s subject names the attendee', () => {
    const m = renderMeetingMails('confirmation', facts, links);
    expect(m.attendee?.text).toContain(links.reschedule);
    expect(m.attendee?.icsDescription).toContain(links.cancel);
    expect(m.guest?.text).not.toContain(links.cancel);
    expect(m.host?.text).not.toContain(links.cancel);
    expect(m.host?.subject).toMatch(/^Confirmed: Intro call on .+ with Ada$/);
    expect(m.attendee?.subject).toContain('(Europe/Berlin)');
  });

  test('a request goes to the attendee only, the confirm request to the host only', () => {
    expect(Object.keys(renderMeetingMails('request_received', facts, links))).toEqual(['attendee']);
    const ask = renderMeetingMails('confirm_request', facts, links);
    expect(Object.keys(ask)).toEqual(['host']);
    expect(ask.host?.text).toContain(`Confirm: ${links.confirm}`);
    expect(ask.host?.text).toContain(`Decline: ${links.decline}`);
  });

  test('an update says the meeting moved; a lapse is worded apart from a cancellation', () => {
    expect(renderMeetingMails('update', facts, links).guest?.text).toMatch(/^The meeting has moved/);
    const base = { title: 'Intro call', start: facts.start, timezone: 'UTC' };
    expect(cancellationMail({ ...base, reason: 'not confirmed' }).subject).toBe('Not confirmed: Intro call');
    const cancelled = cancellationMail({ ...base, reason: 'ill' });
    expect(cancelled.subject).toBe('Cancelled: Intro call');
    expect(cancelled.text).toContain('Reason: ill');
  });
});
