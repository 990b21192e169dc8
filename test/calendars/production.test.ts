import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { productionCalendarKeyProblem } from '../../core/config';

/** Calendar credentials need a key that outlives the machine: production refuses to start without CALENDAR_CREDENTIALS_KEY. */
const ROOT = path.join(__dirname, '..', '..');

test.each(['bin/api.ts', 'bin/worker.ts'])('%s with NODE_ENV=production and no CALENDAR_CREDENTIALS_KEY exits 1 naming it', (file) => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['CALENDAR_CREDENTIALS_KEY', 'NODE_ENV'].includes(k)));
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...clean, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('CALENDAR_CREDENTIALS_KEY is not set');
  expect(r.stderr).not.toContain('SMTP_URL is not set');
});

test('the rule: only production, only without the key', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  expect(productionCalendarKeyProblem({ NODE_ENV: 'production', CALENDAR_CREDENTIALS_KEY: undefined })).toMatch(
    /^CALENDAR_CREDENTIALS_KEY is not set/,
  );
  expect(productionCalendarKeyProblem({ NODE_ENV: 'production', CALENDAR_CREDENTIALS_KEY: key })).toBeNull();
  expect(productionCalendarKeyProblem({ NODE_ENV: 'development', CALENDAR_CREDENTIALS_KEY: undefined })).toBeNull();
});
