import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import type { Browser } from 'playwright-core';
import { createMailer, type Mailer } from '../../core/mailer';
import type { Plan } from '../../core/scopes';
import { alwaysAvailable } from '../scheduling/helpers';
import { startTestApp, type TestApp } from './app';
import { hasChromium, launchChromium } from './browser';
import { createTestDatabase, type TestDatabase } from './db';
import { createTestTeam, type TestTeam } from './fixtures';
import { client } from './http';
import { startSmtp, type SmtpSink } from './smtp';
import { createLocalEnv, createTestWorker, createTimeSkippingEnv } from './temporal';

/** A suite's database, app, team and the team's API client, filled in by its beforeAll. */
export interface ApiWorld {
  readonly tdb: TestDatabase;
  readonly app: TestApp;
  readonly team: TestTeam;
  /** Calls the app with the team's all-scopes API key. */
  readonly api: ReturnType<typeof client>;
  /** Calls the app with the team owner's dashboard session. */
  readonly session: ReturnType<typeof client>;
  /** Calls the app without credentials (public pages and endpoints). */
  readonly pub: ReturnType<typeof client>;
  /** Headless Chromium (`browser: true`); declare the tests that use it with itWithBrowser. */
  readonly browser: Browser;
  /** A second team (`other: true`), for the checks that another team's record is a 404. */
  readonly other: TestTeam;
  /** The Temporal test server (`temporal: …`); the app starts workflows on it. */
  readonly env: TestWorkflowEnvironment;
  /** A real SMTP server keeping every message (`smtp: …`). */
  readonly smtp: SmtpSink;
  /** A mailer sending to `smtp` (`smtp: { mailFrom }`). */
  readonly mailer: Mailer;
  /** Run `fn` at teardown, before the world's own parts close (last registered, first run). */
  onTeardown(fn: () => unknown): void;
}

export interface WorldOptions {
  /**
   * Extra environment for the app's config (test/helpers/app.ts has the defaults); a function is
   * called when the app starts, after the beforeAll hooks declared before this call.
   */
  env?: Record<string, string> | (() => Record<string, string>);
  /**
   * A Temporal test server: the time-skipping one, the real CLI's dev server (`local`), one the
   * suite builds (a function), or one the caller owns and tears down itself (an environment).
   */
  temporal?: 'time-skipping' | 'local' | (() => Promise<TestWorkflowEnvironment>) | TestWorkflowEnvironment;
  /** A worker polling `env` with the activities this builds from the world, run until teardown. */
  worker?: (w: ApiWorld) => object;
  /** No app: a database (and team) only. */
  app?: false;
  /** No team, or the team's plan and timezone. */
  team?: false | { plan?: Plan; timezone?: string };
  /** A second team in `other`. */
  other?: true;
  /** Make the team's owner staff (staff routes). */
  staff?: true;
  /** The team's owner is available around the clock, every day (in this timezone, UTC when `true`). */
  available?: true | string;
  /** A real SMTP server in `smtp`; with `mailFrom`, also a `mailer` sending to it. */
  smtp?: true | { mailFrom: string };
  /** Headless Chromium in `browser`, when it is installed. */
  browser?: true;
  /** Temporal, app, team (and worker) anew for each test; the database and SMTP server stay for the suite. */
  eachTest?: true;
  /** The set-up's timeout (ms). */
  timeout?: number;
}

const HOW: Record<string, string> = {
  app: 'leave out `app: false`',
  team: 'leave out `team: false`',
  api: 'leave out `team: false`',
  session: 'leave out `team: false`',
  pub: 'leave out `app: false`',
  browser: 'pass `browser: true`, and declare the test with itWithBrowser',
  other: 'pass `other: true`',
  env: 'pass `temporal`',
  smtp: 'pass `smtp`',
  mailer: 'pass `smtp: { mailFrom }`',
};

/**
 * A fresh database, and as asked the app on a real port, a team, Temporal, a worker and an SMTP
 * server, for one suite (or the Temporal/app/team part for each test, `eachTest`); all torn down
 * after it. Reading a part the options did not ask for throws, naming the option.
 */
export function useApiWorld<W extends ApiWorld = ApiWorld>(opts: WorldOptions = {}): W {
  const { w, startSuite, startRest, stopRest, stopSuite } = buildWorld<W>(opts);
  const timeout = opts.timeout ?? (opts.temporal ? 120_000 : undefined);
  if (opts.eachTest) {
    beforeAll(startSuite, timeout);
    beforeEach(startRest, timeout);
    afterEach(stopRest, 60_000);
    afterAll(stopSuite, 60_000);
  } else {
    beforeAll(async () => {
      await startSuite();
      await startRest();
    }, timeout);
    afterAll(async () => {
      await stopRest();
      await stopSuite();
    }, 60_000);
  }
  return w;
}

/** The same world started now, outside jest's hooks (a support module's own start function); `close()` tears it down. */
export async function startApiWorld(opts: Omit<WorldOptions, 'eachTest'> = {}): Promise<ApiWorld & { close(): Promise<void> }> {
  const { w, startSuite, startRest, stopRest, stopSuite } = buildWorld(opts);
  await startSuite();
  await startRest();
  return Object.assign(w, {
    close: async () => {
      await stopRest();
      await stopSuite();
    },
  });
}

function buildWorld<W extends ApiWorld = ApiWorld>(opts: WorldOptions) {
  const parts: Record<string, unknown> = {};
  const cleanups: Array<() => unknown> = [];
  const w = {
    onTeardown: (fn: () => unknown) => void cleanups.push(fn),
  } as unknown as W;
  for (const key of ['tdb', ...Object.keys(HOW)]) {
    Object.defineProperty(w, key, {
      enumerable: true,
      get: () => {
        if (key in parts) return parts[key];
        throw new Error(`this suite's world has no ${key} (${HOW[key] ?? 'set-up did not run'})`);
      },
    });
  }
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;

  const startSuite = async () => {
    parts.tdb = await createTestDatabase();
    if (opts.browser && hasChromium) parts.browser = await launchChromium();
    if (opts.smtp) parts.smtp = await startSmtp();
    if (opts.smtp && opts.smtp !== true) {
      parts.mailer = createMailer({ SMTP_URL: (parts.smtp as SmtpSink).url, MAIL_FROM: opts.smtp.mailFrom, dataDir: '/tmp' });
    }
  };
  const startRest = async () => {
    const { db } = w.tdb;
    const t = opts.temporal;
    if (t)
      parts.env =
        t === 'local'
          ? await createLocalEnv()
          : t === 'time-skipping'
            ? await createTimeSkippingEnv()
            : typeof t === 'function'
              ? await t()
              : t;
    if (opts.app !== false) {
      parts.app = await startTestApp(db, {
        temporal: opts.temporal ? w.env.client : undefined,
        env: typeof opts.env === 'function' ? opts.env() : opts.env,
      });
      parts.pub = client(w.app.baseUrl);
    }
    if (opts.team !== false) {
      const team = await createTestTeam(db, opts.team === undefined ? {} : opts.team);
      parts.team = team;
      if (opts.staff) await db('users').where({ id: team.userId }).update({ is_staff: true });
      if (opts.available) await alwaysAvailable(db, team.userId, opts.available === true ? undefined : opts.available);
      if (opts.app !== false) {
        parts.api = client(w.app.baseUrl, team.apiKey);
        parts.session = client(w.app.baseUrl, team.session);
      }
    }
    if (opts.other) parts.other = await createTestTeam(db);
    if (opts.worker) {
      worker = await createTestWorker(w.env, opts.worker(w));
      running = worker.run();
    }
  };
  const stopRest = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
    worker?.shutdown();
    await running?.catch(() => undefined);
    worker = running = undefined;
    await (parts.app as TestApp | undefined)?.close();
    if (typeof opts.temporal !== 'object') await (parts.env as TestWorkflowEnvironment | undefined)?.teardown();
    for (const key of ['app', 'pub', 'env', 'team', 'api', 'session', 'other']) delete parts[key];
  };
  const stopSuite = async () => {
    await (parts.browser as Browser | undefined)?.close();
    (parts.mailer as Mailer | undefined)?.close();
    await (parts.smtp as SmtpSink | undefined)?.close();
    await (parts.tdb as TestDatabase | undefined)?.drop();
  };

  return { w, startSuite, startRest, stopRest, stopSuite };
}
