import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { buildWorkerDeps } from '../../../activities/deps';
import type { TestApp } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';
import type { TestTeam } from '../../helpers/fixtures';
import { client } from '../../helpers/http';
import { createTestWorker, waitStarted } from '../../helpers/temporal';
import { startApiWorld } from '../../helpers/world';
import { startSmtp, type DataReply, type RcptReply, type ReceivedMail } from './smtp';
import { startTwilioStandin } from './twilio-standin';

export const TWILIO_SID = `AC${'0'.repeat(32)}`;
export const TWILIO_TOKEN = 'test-twilio-auth-token';

export interface World {
  tdb: TestDatabase;
  env: TestWorkflowEnvironment;
  app: TestApp;
  team: TestTeam;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  twilio: Awaited<ReturnType<typeof startTwilioStandin>>;
  api: ReturnType<typeof client>;
  dash: ReturnType<typeof client>;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  /** Wait until the outbox started `enrollment-<id>`, then for its result (time skips meanwhile). */
  result(enrollmentId: string): Promise<{ status: string; reason: string | null; sent: number }>;
  waitStarted(workflowId: string): Promise<void>;
  close(): Promise<void>;
}

/** DB + API + time-skipping Temporal + real SMTP server + Twilio stand-in + a worker with the real activities. */
export async function startWorld(
  opts: {
    env?: TestWorkflowEnvironment;
    beforeAccept?: (m: ReceivedMail) => Promise<void>;
    rcptReply?: RcptReply;
    dataReply?: DataReply;
    worker?: boolean;
    /** Extra environment for the app's config (and the worker's activities). */
    appEnv?: Record<string, string>;
  } = {},
): Promise<World> {
  const smtp = await startSmtp({ beforeAccept: opts.beforeAccept, rcptReply: opts.rcptReply, dataReply: opts.dataReply });
  const twilio = await startTwilioStandin();
  // A new time-skipping server (createTimeSkippingEnv registers our search attributes), or the
  // caller's, which the caller tears down.
  const base = await startApiWorld({
    temporal: opts.env ?? 'time-skipping',
    env: {
      SMTP_URL: smtp.url,
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_API_BASE_URL: twilio.url,
      ...opts.appEnv,
    },
  });
  const { tdb, env, app, team } = base;
  await tdb
    .db('teams')
    .where({ id: team.teamId })
    .update({ settings: JSON.stringify({ sms_provider: 'twilio' }) });
  const activities = createActivities(buildWorkerDeps(app.config, tdb.db, app.deps.outbox));
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  const w: World = {
    tdb,
    env,
    app,
    team,
    smtp,
    twilio,
    api: base.api,
    dash: base.session,
    async startWorker() {
      worker = await createTestWorker(env, activities);
      running = worker.run();
    },
    async stopWorker() {
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      worker = undefined;
    },
    waitStarted: (workflowId) => waitStarted(env, workflowId),
    async result(enrollmentId) {
      await w.waitStarted(`enrollment-${enrollmentId}`);
      return env.client.workflow.getHandle(`enrollment-${enrollmentId}`).result();
    },
    async close() {
      await w.stopWorker();
      await base.close();
      await smtp.close();
      await twilio.close();
    },
  };
  if (opts.worker !== false) await w.startWorker();
  return w;
}

/** startWorld() for one suite: started in beforeAll, closed in afterAll. Read it inside tests. */
export function useWorld(opts: Parameters<typeof startWorld>[0] = {}): World {
  const w = {} as World;
  beforeAll(async () => {
    Object.assign(w, await startWorld(opts));
  }, 60_000);
  afterAll(async () => {
    await w.close?.();
  });
  return w;
}
