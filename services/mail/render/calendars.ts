import { escapeHtml as e } from '../../../core/html';
import type { RenderedMail } from './accounts';

/** The email to a host whose Google connection Google no longer accepts (docs/calendars.md "Fail closed"). */
export function googleReauthMail(opts: { accountEmail: string; url: string }): RenderedMail {
  const lines = [
    `Google no longer accepts the connection to the calendar of ${opts.accountEmail} (access was revoked or has expired).`,
    '',
    'Until you connect it again, your booking pages offer no times, and new bookings are not written to that calendar.',
    '',
    `Connect Google Calendar again from your calendar settings: ${opts.url}`,
  ];
  return {
    subject: 'Connect your Google Calendar again',
    text: lines.join('\n'),
    html:
      `<p>Google no longer accepts the connection to the calendar of <strong>${e(opts.accountEmail)}</strong> (access was revoked or has expired).</p>` +
      '<p>Until you connect it again, your booking pages offer no times, and new bookings are not written to that calendar.</p>' +
      `<p><a href="${e(opts.url)}">Connect Google Calendar again</a></p><p><small>${e(opts.url)}</small></p>`,
  };
}
