import { escapeHtml as e } from '../../../core/html';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);
const button = (url: string, label: string) => `<p><a href="${e(url)}">${e(label)}</a></p><p><small>${e(url)}</small></p>`;

export function invitationMail(opts: {
  teamName: string;
  inviterName: string | null;
  role: string;
  url: string;
  expiresAt: Date;
  reminder: boolean;
}): RenderedMail {
  const who = opts.inviterName ? `${opts.inviterName} invited you` : 'You are invited';
  const subject = oneLine(`${opts.reminder ? 'Reminder: you are' : 'You are'} invited to join ${opts.teamName}`);
  const until = opts.expiresAt.toISOString();
  const text = [
    `${who} to join the team "${opts.teamName}" as ${opts.role}.`,
    '',
    `Accept the invitation (set your name and password): ${opts.url}`,
    '',
    `The link is valid until ${until}. If you did not expect this email, ignore it.`,
  ].join('\n');
  const html =
    `<p>${e(who)} to join the team <strong>${e(opts.teamName)}</strong> as ${e(opts.role)}.</p>` +
    button(opts.url, 'Accept the invitation') +
    `<p>The link is valid until ${e(until)}. If you did not expect this email, ignore it.</p>`;
  return { subject, text, html };
}

export function passwordResetMail(opts: { url: string; expiresAt: Date }): RenderedMail {
  const until = opts.expiresAt.toISOString();
  return {
    subject: 'Reset your password',
    text: [
      'Someone (hopefully you) asked to reset the password of this account.',
      '',
      `Choose a new password: ${opts.url}`,
      '',
      `The link works once and until ${until}. If you did not ask for it, ignore this email: your password stays as it is.`,
    ].join('\n'),
    html:
      '<p>Someone (hopefully you) asked to reset the password of this account.</p>' +
      button(opts.url, 'Choose a new password') +
      `<p>The link works once and until ${e(until)}. If you did not ask for it, ignore this email: your password stays as it is.</p>`,
  };
}

export function emailChangeMail(opts: { url: string; newEmail: string; expiresAt: Date }): RenderedMail {
  const until = opts.expiresAt.toISOString();
  return {
    subject: 'Confirm your new email address',
    text: [`Confirm ${opts.newEmail} as the email address of your account: ${opts.url}`, '', `The link is valid until ${until}.`].join(
      '\n',
    ),
    html: `<p>Confirm <strong>${e(opts.newEmail)}</strong> as the email address of your account.</p>${button(opts.url, 'Confirm the address')}<p>The link is valid until ${e(until)}.</p>`,
  };
}

export function emailChangeNotice(opts: { newEmail: string }): RenderedMail {
  const line = `A change of your account's email address to ${opts.newEmail} was requested. It takes effect once confirmed from that address. If it was not you, change your password.`;
  return { subject: 'Your email address is about to change', text: line, html: `<p>${e(line)}</p>` };
}
