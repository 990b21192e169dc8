import { escapeHtml as e } from '../../../core/html';
import type { RenderedMail } from './accounts';

/** The email to a host whose Google or Microsoft connection the provider no longer accepts (docs/calendars.md "Fail closed"). */
export function calendarReauthMail(opts: { provider: 'Google' | 'Microsoft'; accountEmail: string; url: string }): RenderedMail {
  const product = opts.provider === 'Google' ? 'Google Calendar' : 'Microsoft 365';
  const lines = [
    `${opts.provider} no longer accepts the connection to the calendar of ${opts.accountEmail} (access was revoked or has expired).`,
    '',
    'Until you connect it again, your booking pages offer no times, and new bookings are not written to that calendar.',
    '',
    `Connect ${product} again from your calendar settings: ${opts.url}`,
  ];
  return {
    subject: opts.provider === 'Google' ? 'Connect your Google Calendar again' : 'Connect your Microsoft 365 calendar again',
    text: lines.join('\n'),
    html:
      `<p>${e(opts.provider)} no longer accepts the connection to the calendar of <strong>${e(opts.accountEmail)}</strong> (access was revoked or has expired).</p>` +
      '<p>Until you connect it again, your booking pages offer no times, and new bookings are not written to that calendar.</p>' +
      `<p><a href="${e(opts.url)}">Connect ${e(product)} again</a></p><p><small>${e(opts.url)}</small></p>`,
  };
}
