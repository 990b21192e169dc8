import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { productionSendingProblem } from '../../core/config';

/** Production never pretends to send: the API and the worker refuse to start without SMTP_URL. */
const ROOT = path.join(__dirname, '..', '..');

function start(file: string, env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['SMTP_URL', 'NODE_ENV'].includes(k)));
  return spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...clean, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test.each(['bin/api.ts', 'bin/worker.ts'])('%s with NODE_ENV=production and no SMTP_URL exits 1 naming SMTP_URL', (file) => {
  const r = start(file, { NODE_ENV: 'production' });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('SMTP_URL');
});

test('the rule: only production, only without SMTP_URL', () => {
  expect(productionSendingProblem({ NODE_ENV: 'production', SMTP_URL: undefined })).toMatch(/^SMTP_URL is not set/);
  expect(productionSendingProblem({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:587' })).toBeNull();
  expect(productionSendingProblem({ NODE_ENV: 'development', SMTP_URL: undefined })).toBeNull();
});
