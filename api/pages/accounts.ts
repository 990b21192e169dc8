import { escapeHtml as e, page } from '../../core/html';
import { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from '../../services/accounts/password-policy';
import type { InvitationView } from '../../services/accounts/accept-invitation';

/** No scripts and no external resources: the pages are plain forms that post to themselves. */
export const ACCOUNT_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.5}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box;font-size:1rem}
button{padding:.6rem 1.2rem;margin-top:1rem;font-size:1rem;cursor:pointer}.error{color:#a00;border:1px solid #a00;padding:.5rem}
.hint{color:#555;font-size:.9rem}</style>`;

const shell = (title: string, body: string) => page(title, `<main>${body}</main>`, { head: STYLE });
const alert = (message?: string) => (message ? `<p role="alert" class="error">${e(message)}</p>` : '');
const passwordFields = (label: string) =>
  `<label for="password">${e(label)}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}">
<p class="hint">At least ${PASSWORD_MIN_LENGTH} characters, not containing your email address.</p>
<label for="password_confirm">Repeat the password</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required maxlength="${PASSWORD_MAX_LENGTH}">`;

export function invalidLinkPage(): string {
  return shell(
    'Link not valid',
    '<h1>This link is not valid</h1><p>It may have expired, been used already, or been withdrawn. Ask for a new one.</p>',
  );
}

export function invitationPage(token: string, view: InvitationView, opts: { error?: string; name?: string } = {}): string {
  const title = `Join ${view.teamName}`;
  if (view.invitee === 'member') {
    return shell(
      title,
      `<h1>${e(title)}</h1><p>${e(view.email)} is a member of ${e(view.teamName)} already: sign in with your password.</p>`,
    );
  }
  if (view.invitee === 'other_team') {
    return shell(
      title,
      `<h1>${e(title)}</h1><p role="alert" class="error">${e(view.email)} already has an account with another team, and an account belongs to one team.</p>
<p>Ask whoever invited you to invite another address.</p>`,
    );
  }
  const name = opts.name ?? view.name ?? '';
  return shell(
    title,
    `<h1>${e(title)}</h1>
<p>You are invited to join <strong>${e(view.teamName)}</strong> as ${e(view.role)}, with the address <strong>${e(view.email)}</strong>.</p>
${alert(opts.error)}
<form method="post" action="/account/invitations/${e(encodeURIComponent(token))}">
<label for="name">Your name</label><input id="name" name="name" autocomplete="name" required maxlength="200" value="${e(name)}">
${passwordFields('Choose a password')}
<button type="submit">Join the team</button></form>`,
  );
}

export function invitationAcceptedPage(teamName: string, email: string): string {
  return shell(
    'Welcome',
    `<h1 role="status">Welcome to ${e(teamName)}</h1><p>Your account <strong>${e(email)}</strong> is ready: sign in with your email address and the password you chose.</p>`,
  );
}

export function resetPasswordPage(token: string, email: string, error?: string): string {
  return shell(
    'Choose a new password',
    `<h1>Choose a new password</h1><p>For <strong>${e(email)}</strong>.</p>${alert(error)}
<form method="post" action="/account/reset-password/${e(encodeURIComponent(token))}">
${passwordFields('New password')}
<button type="submit">Set the password</button></form>`,
  );
}

export function passwordChangedPage(email: string): string {
  return shell(
    'Password changed',
    `<h1 role="status">Your password is changed</h1><p>Sign in as <strong>${e(email)}</strong> with the new password. Every earlier session was signed out.</p>`,
  );
}

export function confirmEmailPage(token: string, newEmail: string): string {
  return shell(
    'Confirm your new email address',
    `<h1>Confirm your new email address</h1><p>Use <strong>${e(newEmail)}</strong> to sign in from now on?</p>
<form method="post" action="/account/confirm-email/${e(encodeURIComponent(token))}"><button type="submit">Confirm</button></form>`,
  );
}

export function emailConfirmedPage(email: string): string {
  return shell(
    'Email address changed',
    `<h1 role="status">Your email address is changed</h1><p>Sign in with <strong>${e(email)}</strong> from now on.</p>`,
  );
}

export function emailTakenPage(): string {
  return shell(
    'Address in use',
    '<h1>This address is in use</h1><p role="alert" class="error">Another account uses this address now. Ask for the change again with another address.</p>',
  );
}
