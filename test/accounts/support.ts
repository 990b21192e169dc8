import { accountsActivities } from '../../activities/accounts';
import { buildWorkerDeps } from '../../activities/deps';
import { http, type HttpResult } from '../helpers/http';
import { eventually, type Mail, type SmtpSink } from '../helpers/smtp';
import { useApiWorld, type ApiWorld } from '../helpers/world';

/** A suite's database, Temporal time-skipping server, worker with the accounts activities, real SMTP server and app. */
export type AccountsWorld = ApiWorld;

export function useAccountsWorld(opts: { env?: Record<string, string> } = {}): AccountsWorld {
  return useApiWorld({
    temporal: 'time-skipping',
    env: opts.env,
    smtp: { mailFrom: 'Accounts <accounts@example.com>' },
    worker: (w) => accountsActivities(buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, { mailer: w.mailer })),
  });
}

/** Post an HTML form (application/x-www-form-urlencoded), as a browser without JavaScript does. */
export function postForm(baseUrl: string, path: string, fields: Record<string, string>): Promise<HttpResult> {
  return http(baseUrl, 'post', path, {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** The token of the link to `path` in a message's text. */
export function linkToken(mail: Mail, path: string): string {
  const m = new RegExp(`${path.replace(/\//g, '\\/')}/([A-Za-z0-9_-]{43})`).exec(mail.text ?? '');
  if (!m) throw new Error(`no ${path} link in: ${mail.text}`);
  return m[1];
}

/** Messages to an address (optionally with a header value), waiting until `count` have arrived. */
export function mailsTo(smtp: SmtpSink, to: string, count = 1, header?: [string, string]): Promise<Mail[]> {
  const pick = () =>
    smtp.messages.filter(
      (m) => (m.to?.text ?? '').toLowerCase().includes(to.toLowerCase()) && (!header || m.headers.get(header[0]) === header[1]),
    );
  return eventually(() => (pick().length >= count ? pick() : undefined), `${count} message(s) to ${to}`);
}

export const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}@example.com`;
