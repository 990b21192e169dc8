import { escapeHtml as e, page } from '../../../core/html';
import type { Scope } from '../../../core/scopes';
import { SCOPE_WORDS } from './scope-words';

/** No scripts, no external resources; the app adds frame-ancestors 'none'. */
export const OAUTH_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{padding:.6rem 1.2rem;margin:.75rem .5rem 0 0;font-size:1rem}.error{color:#a00;border:1px solid #a00;padding:.5rem}
ul{padding-left:1.25rem}</style>`;

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${e(k)}" value="${e(v)}">`)
    .join('');

export function errorPage(message: string): string {
  return page(
    'Authorization error',
    `<main><h1>This authorization request cannot continue</h1>
<p role="alert" class="error">${e(message)}</p><p>Go back to the application and try again, or contact its developer.</p></main>`,
    { head: STYLE },
  );
}

export function loginPage(opts: { appName: string; returnTo: string; csrf: string; error?: string; email?: string }): string {
  return page(
    'Sign in',
    `<main><h1>Sign in to continue to ${e(opts.appName)}</h1>
${opts.error ? `<p role="alert" class="error">${e(opts.error)}</p>` : ''}
<form method="post" action="/api/oauth/login">${hidden({ csrf: opts.csrf, return_to: opts.returnTo })}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${e(opts.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></main>`,
    { head: STYLE },
  );
}

export function consentPage(opts: {
  appName: string;
  websiteUrl: string | null;
  developmentApp: boolean;
  userEmail: string;
  /** What the app asks for and the user's role allows: what it will get. */
  scopes: string[];
  /** What it asks for beyond the user's role: listed, and not granted. */
  withheld: string[];
  role: string;
  fields: Record<string, string>;
}): string {
  const item = (s: string) => `<li><strong>${e(SCOPE_WORDS[s as Scope] ?? s)}</strong> <small>(${e(s)})</small></li>`;
  const items = opts.scopes.map(item).join('');
  const beyond = opts.withheld.length
    ? `<h2>It asks for more than your role (${e(opts.role)}) allows; it will not get:</h2><ul>${opts.withheld.map(item).join('')}</ul>`
    : '';
  return page(
    `Authorize ${opts.appName}`,
    `<main><h1>${e(opts.appName)} wants to access your account</h1>
<p>Signed in as ${e(opts.userEmail)}.${opts.websiteUrl ? ` Developer site: ${e(opts.websiteUrl)}.` : ''}</p>
${opts.developmentApp ? '<p><em>This app is in development and has not been reviewed.</em></p>' : ''}
<h2>It will be able to:</h2>${items ? `<ul>${items}</ul>` : '<p>Nothing: your role allows none of what it asks for.</p>'}
${beyond}
<form method="post" action="/api/oauth/authorize">${hidden(opts.fields)}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></form></main>`,
    { head: STYLE },
  );
}
