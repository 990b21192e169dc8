import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { accountsActivities } from '../../activities/accounts';
import { createMailer, type Mailer } from '../../core/mailer';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createTestTeam, type TestTeam } from '../helpers/fixtures';
import { http, type HttpResult } from '../helpers/http';
import { eventually, startSmtp, type Mail, type SmtpSink } from '../helpers/smtp';
import { createTimeSkippingEnv, createTestWorker } from '../helpers/temporal';

/** A suite's database, Temporal time-skipping server, worker with the accounts activities, real SMTP server and app. */
export interface AccountsWorld {
  tdb: TestDatabase;
  env: TestWorkflowEnvironment;
  app: TestApp;
  smtp: SmtpSink;
  mailer: Mailer;
  team: TestTeam;
}

export function useAccountsWorld(opts: { env?: Record<string, string> } = {}): AccountsWorld {
  const w = {} as AccountsWorld;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    w.tdb = await createTestDatabase();
    w.env = await createTimeSkippingEnv();
    w.app = await startTestApp(w.tdb.db, { temporal: w.env.client, env: opts.env });
    w.smtp = await startSmtp();
    w.mailer = createMailer({ SMTP_URL: w.smtp.url, MAIL_FROM: 'Accounts <accounts@example.com>', dataDir: '/tmp' });
    w.team = await createTestTeam(w.tdb.db);
    const activities = accountsActivities({
      db: w.tdb.db,
      config: w.app.config,
      mailer: w.mailer,
      sms: undefined as never,
      outbox: w.app.deps.outbox,
    });
    worker = await createTestWorker(w.env, activities);
    running = worker.run();
  }, 120_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    w.mailer?.close();
    await w.smtp?.close();
    await w.app?.close();
    await w.env?.teardown();
    await w.tdb?.drop();
  });
  return w;
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
