import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Client } from '@temporalio/client';
import { createApp } from '../../api/app';
import { buildAppDeps } from '../../api/build-deps';
import type { AppDeps } from '../../api/deps';
import { parseConfig, type Config } from '../../core/config';
import type { Db } from '../../db/knex';
import { recordAnswers } from './answers';
import { TEST_DATA_DIR, TEST_PASSWORD_HASH } from './config';

export interface TestApp {
  baseUrl: string;
  deps: AppDeps;
  config: Config;
  server: Server;
  /** Requests the app holds now (api/http/in-flight.ts). */
  inFlight(): number;
  close(): Promise<void>;
}

/**
 * The real Koa app on a real port, on the given test database. Temporal is the given client
 * (a TestWorkflowEnvironment's), or none: workflow starts then wait in the outbox.
 */
export async function startTestApp(
  db: Db,
  opts: {
    temporal?: Client;
    /** The process's own Temporal access instead (the API's lazy client, as bin/api.ts builds it). */
    temporalAccess?: { get: () => Promise<Client>; healthy: () => Promise<boolean> };
    env?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const config = parseConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'postgres://unused/unused',
    RATE_LIMIT_DISABLED: 'true',
    // Exact shared counting in tests (production batches increments per process, see RATE_LIMIT_SYNC_MS).
    RATE_LIMIT_SYNC_MS: '0',
    // Suites run their own workers without the relay loop: the API starts workflows itself
    // (test/foundation/outbox.test.ts covers the worker-side starts).
    OUTBOX_STARTS_FROM: 'api',
    ALLOW_LOOPBACK_WEBHOOK_URLS: 'true',
    // Every answer is checked against the route's declared response schema (api/http/response-check.ts).
    VALIDATE_RESPONSES: 'true',
    DATA_DIR: TEST_DATA_DIR,
    ...TEST_PASSWORD_HASH,
    ...opts.env,
  });
  const temporal = opts.temporal;
  const deps = buildAppDeps(
    config,
    opts.temporalAccess ?? {
      get: async () => {
        if (!temporal) throw new Error('no Temporal in this test');
        return temporal;
      },
      healthy: async () => !!temporal,
    },
    db,
  );
  const koa = createApp(deps);
  recordAnswers(koa);
  const server = koa.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  deps.config.baseUrl = baseUrl;
  return {
    baseUrl,
    deps,
    config,
    server,
    inFlight: () => koa.context.inFlight(),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.rateLimits.close();
      await deps.calendarWrites.close();
    },
  };
}
