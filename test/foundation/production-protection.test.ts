import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { productionProtectionProblem } from '../../core/config';
import { logger } from '../../core/logger';
import { requestIdAndErrors } from '../../api/http/errors-middleware';

/** Production refuses settings that remove a protection, and never logs a path that can hold a token. */
const ROOT = path.join(__dirname, '..', '..');
const CLEARED = ['NODE_ENV', 'BASE_URL', 'RATE_LIMIT_DISABLED', 'TRUST_PROXY'];

test.each(['bin/api.ts', 'bin/worker.ts'])(
  '%s with NODE_ENV=production, RATE_LIMIT_DISABLED and no BASE_URL exits 1 naming both',
  (file) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CLEARED.includes(k)));
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: {
        ...clean,
        NODE_ENV: 'production',
        RATE_LIMIT_DISABLED: 'true',
        SMTP_URL: 'smtp://mail.example.com:587',
        CALENDAR_CREDENTIALS_KEY: '0'.repeat(64),
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('RATE_LIMIT_DISABLED is set');
    expect(r.stderr).toContain('BASE_URL is not set');
  },
);

test('the rule: production only; https, or http on loopback', () => {
  const prod = { NODE_ENV: 'production' as const, RATE_LIMIT_DISABLED: false };
  expect(productionProtectionProblem({ ...prod, BASE_URL: 'https://forms.example.com' })).toBeNull();
  expect(productionProtectionProblem({ ...prod, BASE_URL: 'http://localhost:3000' })).toBeNull();
  expect(productionProtectionProblem({ ...prod, BASE_URL: 'http://127.0.0.1:3000' })).toBeNull();
  expect(productionProtectionProblem({ ...prod, BASE_URL: 'http://forms.example.com' })).toMatch(
    /^BASE_URL is http:\/\/forms\.example\.com/,
  );
  expect(productionProtectionProblem({ ...prod, BASE_URL: undefined })).toMatch(/^BASE_URL is not set/);
  expect(productionProtectionProblem({ ...prod, RATE_LIMIT_DISABLED: true, BASE_URL: 'https://x.example.com' })).toMatch(
    /^RATE_LIMIT_DISABLED is set/,
  );
  expect(productionProtectionProblem({ NODE_ENV: 'development', RATE_LIMIT_DISABLED: true, BASE_URL: undefined })).toBeNull();
});

test('a 5xx logs the route template, never the path holding a token', async () => {
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  router.get('/booking/:token', () => {
    throw new Error('database went away');
  });
  app.use(requestIdAndErrors);
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const logged: unknown[] = [];
  const spy = jest.spyOn(logger, 'error').mockImplementation(((obj: unknown) => void logged.push(obj)) as never);
  try {
    const secret = 'tok_' + 'x'.repeat(40);
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/booking/${secret}`);
    expect(res.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ route: '/booking/:token', method: 'GET' });
    expect(JSON.stringify(logged[0])).not.toContain(secret);
  } finally {
    spy.mockRestore();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
