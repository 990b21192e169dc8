import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { freePort } from '../../core/ports';
import { alwaysAvailable, dayFromNow } from '../scheduling/helpers';
import { startReceiver } from '../webhooks/receiver';
import { DIST, ensureBuilt } from '../helpers/build';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { spawnEntry } from '../helpers/entry-process';
import { client, http } from '../helpers/http';
import { eventually, startSmtp, type SmtpSink } from '../helpers/smtp';
import { createLocalEnv } from '../helpers/temporal';

/**
 * The production path end to end: `npm run build`'s output (dist/, no tsx, the prebuilt workflow
 * bundle) run with plain Node and NODE_ENV=production: the compiled API, worker and inbound
 * listener against the test PostgreSQL and a real Temporal dev server; a team bootstrapped with the
 * compiled CLI; a form submission whose webhook reaches a local receiver; a booking whose
 * confirmation mail reaches a local SMTP server. Then every process stops on SIGTERM.
 */
let tdb: TestDatabase;
let env: TestWorkflowEnvironment;
let smtp: SmtpSink;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  [tdb, env, smtp] = await Promise.all([createTestDatabase(), createLocalEnv(), startSmtp()]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fss-prod-'));
}, 300_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all([tdb?.drop(), env?.teardown(), smtp?.close()]);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What production requires (core/config.ts), with test addresses: loopback http is allowed for BASE_URL. */
function productionEnv(port: number): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: tdb.url,
    DATABASE_POOL_MAX: '5',
    TEMPORAL_ADDRESS: env.address,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Sales <sales@example.com>',
    CALENDAR_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    MAIL_SUPPRESSION_KEY: randomBytes(32).toString('base64'),
    ALLOW_LOOPBACK_WEBHOOK_URLS: 'true',
  };
}

function start(entry: string, readyLine: string, vars: Record<string, string>): Promise<void> {
  const { child, ready } = spawnEntry(entry, { compiled: true, readyLine, env: vars });
  children.push(child);
  return ready;
}

/** The SMTP greeting of a listener: it accepts connections. */
function smtpGreeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('data', (d) => {
      socket.end('QUIT\r\n');
      resolve(d.toString('utf8'));
    });
    socket.once('error', reject);
  });
}

it('the compiled API, worker and listener serve a submission (webhook delivered) and a booking (confirmation mailed)', async () => {
  // The build holds JavaScript and the bundle, and nothing in it loads tsx.
  expect(fs.existsSync(path.join(DIST, 'workflow-bundle.js'))).toBe(true);
  for (const entry of ['api', 'worker', 'inbound', 'cli']) expect(fs.existsSync(path.join(DIST, 'bin', `${entry}.js`))).toBe(true);

  const port = await freePort();
  const inboundPort = await freePort();
  const vars = productionEnv(port);
  await start('bin/api.ts', 'API listening', vars); // migrates the database first
  await Promise.all([
    // Its ready line names the prebuilt bundle it loaded (a worker that bundled the sources would never match).
    start('bin/worker.ts', `"workflows":"${path.join(DIST, 'workflow-bundle.js')}","msg":"worker running"`, vars),
    start('bin/inbound.ts', 'inbound SMTP listening', { ...vars, INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_SMTP_PORT: String(inboundPort) }),
  ]);
  expect(await smtpGreeting(inboundPort)).toMatch(/^220 /);

  const boot = execFileSync(process.execPath, [path.join(DIST, 'bin', 'cli.js'), 'bootstrap', '--json', '--team', 'Prod Smoke'], {
    env: { PATH: process.env.PATH ?? '', ...vars },
    encoding: 'utf8',
  });
  const team = JSON.parse(boot) as { team_id: string; user_id: string; api_key: string };
  expect(team.api_key).toEqual(expect.any(String));
  const baseUrl = vars.BASE_URL;
  const api = client(baseUrl, team.api_key);

  const rx = await startReceiver();
  const form = await api.post('/api/v1/forms', {
    title: 'Smoke form',
    status: 'published',
    fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
  });
  expect(form.status).toBe(201);
  const hook = await api.post('/api/v1/webhooks', { url: rx.url, events: ['submission.created'], form_id: form.body.data.id });
  expect(hook.status).toBe(201);
  const sub = await http(baseUrl, 'post', `/api/forms/${form.body.data.slug}/submissions`, {
    body: { fields: { email: 'ada@example.com' } },
  });
  expect(sub.status).toBe(201);
  await rx.waitFor(1);
  expect(JSON.parse(rx.received[0].body)).toMatchObject({
    event: 'submission.created',
    data: { submission_id: sub.body.data.id, submission_data: { email: 'ada@example.com' } },
  });
  await rx.close();

  // Open around the clock, so that the test books the same way at any hour and on any day.
  await alwaysAvailable(tdb.db, team.user_id);
  const page = await api.post('/api/v1/scheduling-pages', { title: 'Sales calls', status: 'published' });
  expect(page.status).toBe(201);
  const et = await api.post(`/api/v1/scheduling-pages/${page.body.data.id}/event-types`, { title: 'Intro call', start_time_increment: 60 });
  expect(et.status).toBe(201);
  const d = dayFromNow(3);
  const av = await http(
    baseUrl,
    'get',
    `/api/calendar/availability?event_type_id=${et.body.data.id}&start_date=${d}&end_date=${d}&timezone=UTC`,
  );
  expect(av.status).toBe(200);
  const slot = av.body.data.slots[10];
  const booked = await http(baseUrl, 'post', '/api/calendar/book', {
    body: {
      event_type_id: et.body.data.id,
      start_time: slot.start,
      end_time: slot.end,
      timezone: 'UTC',
      name: 'Ada',
      email: 'ada@example.com',
    },
  });
  expect(booked.status).toBe(201);
  const mail = await eventually(
    () => smtp.messages.find((m) => m.to?.text.includes('ada@example.com')),
    'the booking confirmation mail to the attendee',
    60_000,
  );
  expect(mail.from?.text).toContain('sales@example.com');
  expect({ id: mail.headers.get('x-meeting-id'), kind: mail.headers.get('x-meeting-email') }).toEqual({
    id: booked.body.data.id,
    kind: 'confirmation',
  });
  expect(mail.attachments.map((a) => a.contentType)).toEqual([expect.stringMatching(/^text\/calendar/)]);
  await eventually(
    async () => (await tdb.db('meetings').where({ id: booked.body.data.id }).first('confirmation_email_sent'))?.confirmation_email_sent,
    'the meeting marked as confirmed by mail',
  );

  // SIGTERM: every process drains and exits on its own, with status 0.
  const exits = children.map((c) => new Promise<number | null>((resolve) => c.once('exit', (code) => resolve(code))));
  for (const c of children) c.kill('SIGTERM');
  expect(await Promise.all(exits)).toEqual([0, 0, 0]);
}, 300_000);

describe('the compiled entry points refuse an unsafe production configuration', () => {
  const complete = () => productionEnv(3999);
  const cases: Array<[string, Record<string, string | undefined>, RegExp]> = [
    ['no BASE_URL', { BASE_URL: undefined }, /BASE_URL is not set/],
    ['an http BASE_URL that is not loopback', { BASE_URL: 'http://forms.example.com' }, /must be https/],
    ['no SMTP_URL', { SMTP_URL: undefined }, /SMTP_URL is not set/],
    ['no CALENDAR_CREDENTIALS_KEY', { CALENDAR_CREDENTIALS_KEY: undefined }, /CALENDAR_CREDENTIALS_KEY is not set/],
    ['no MAIL_SUPPRESSION_KEY', { MAIL_SUPPRESSION_KEY: undefined }, /MAIL_SUPPRESSION_KEY is not set/],
    ['RATE_LIMIT_DISABLED', { RATE_LIMIT_DISABLED: 'true' }, /RATE_LIMIT_DISABLED is set/],
  ];
  it.each(['api', 'worker'])('dist/bin/%s.js exits 1 naming what is missing', async (entry) => {
    const runs = cases.map(async ([, change, message]) => {
      const vars: Record<string, string> = { PATH: process.env.PATH ?? '' };
      for (const [k, v] of Object.entries({ ...complete(), ...change })) if (v !== undefined) vars[k] = v;
      const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [path.join(DIST, 'bin', `${entry}.js`)],
          { env: vars, encoding: 'utf8', timeout: 60_000 },
          (err, _out, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
        );
      });
      return { change, ...r, expected: message };
    });
    for (const { change, status, stderr, expected } of await Promise.all(runs)) {
      expect({ change, status, stderr }).toEqual({ change, status: 1, stderr: expect.stringMatching(expected) });
    }
  });
});
