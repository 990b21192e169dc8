import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { productionSendingProblem, productionSuppressionKeyProblem } from '../../core/config';
import { createSmsSender } from '../../core/sms';
import { productionSmsProblem, teamsWithSmsSteps } from '../../services/sequences/sms-readiness';
import { createTestTeam } from '../helpers/fixtures';
import { makeSequence } from '../sequences/support/factory';
import { useApiWorld } from '../helpers/world';

/** Production never pretends to send: the API and the worker refuse to start without SMTP_URL, or without Twilio when SMS steps exist. */
const ROOT = path.join(__dirname, '..', '..');
const CLEARED = ['SMTP_URL', 'NODE_ENV', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_API_BASE_URL', 'MAIL_SUPPRESSION_KEY'];

function start(file: string, env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CLEARED.includes(k)));
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

test('the suppression list needs MAIL_SUPPRESSION_KEY in production: bin/api.ts exits 1 naming it', () => {
  const r = start('bin/api.ts', { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1', CALENDAR_CREDENTIALS_KEY: '0'.repeat(64) });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('MAIL_SUPPRESSION_KEY is not set');
  expect(productionSuppressionKeyProblem({ NODE_ENV: 'production', MAIL_SUPPRESSION_KEY: '1'.repeat(64) })).toBeNull();
  expect(productionSuppressionKeyProblem({ NODE_ENV: 'development', MAIL_SUPPRESSION_KEY: undefined })).toBeNull();
});

test('the rule: only production, only without SMTP_URL', () => {
  expect(productionSendingProblem({ NODE_ENV: 'production', SMTP_URL: undefined })).toMatch(/^SMTP_URL is not set/);
  expect(productionSendingProblem({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:587' })).toBeNull();
  expect(productionSendingProblem({ NODE_ENV: 'development', SMTP_URL: undefined })).toBeNull();
});

describe('SMS: Twilio credentials are required in production once a team has SMS steps', () => {
  const w = useApiWorld({ app: false, team: false });

  const sms = { channel: 'sms', delay: { value: 0, unit: 'minutes' }, body: 'Hi {{first_name}}' };
  const production = { NODE_ENV: 'production' as const, TWILIO_ACCOUNT_SID: undefined, TWILIO_AUTH_TOKEN: undefined };

  test('no SMS steps (or only in archived sequences, or retired): no problem', async () => {
    const team = await createTestTeam(w.tdb.db);
    await makeSequence(w.tdb.db, team.teamId); // email only
    const archived = await makeSequence(w.tdb.db, team.teamId, { status: 'draft', steps: [sms], send_from_number: '+15550001111' });
    await w.tdb.db('sequences').where({ id: archived.id }).update({ status: 'archived' });
    const retired = await makeSequence(w.tdb.db, team.teamId, { status: 'draft', steps: [sms], send_from_number: '+15550001111' });
    await w.tdb.db('sequence_steps').where({ sequence_id: retired.id }).update({ deleted_at: w.tdb.db.fn.now() });
    expect(await teamsWithSmsSteps({ db: w.tdb.db })).toBe(0);
    expect(await productionSmsProblem({ db: w.tdb.db, config: production })).toBeNull();
  });

  test('the rule names each missing variable; development and full credentials pass', async () => {
    const team = await createTestTeam(w.tdb.db);
    await makeSequence(w.tdb.db, team.teamId, { status: 'draft', steps: [sms], send_from_number: '+15550001111' });
    expect(await teamsWithSmsSteps({ db: w.tdb.db })).toBe(1);
    const both = await productionSmsProblem({ db: w.tdb.db, config: production });
    expect(both).toMatch(/^TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are not set/);
    expect(both).toContain('1 team has SMS steps');
    const one = await productionSmsProblem({ db: w.tdb.db, config: { ...production, TWILIO_ACCOUNT_SID: 'AC123' } });
    expect(one).toMatch(/^TWILIO_AUTH_TOKEN is not set/);
    expect(
      await productionSmsProblem({ db: w.tdb.db, config: { ...production, TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 't' } }),
    ).toBeNull();
    expect(await productionSmsProblem({ db: w.tdb.db, config: { ...production, NODE_ENV: 'development' } })).toBeNull();
  });

  test.each(['bin/api.ts', 'bin/worker.ts'])('%s in production with SMS steps and no Twilio credentials exits 1 naming them', (file) => {
    // The previous test left a team with an SMS step in this database.
    const r = start(file, {
      NODE_ENV: 'production',
      BASE_URL: 'https://forms.example.com',
      SMTP_URL: 'smtp://127.0.0.1:1',
      DATABASE_URL: w.tdb.url,
      CALENDAR_CREDENTIALS_KEY: '0'.repeat(64),
      MAIL_SUPPRESSION_KEY: '1'.repeat(64),
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      LOG_LEVEL: 'silent',
    });
    expect(r.stderr).toContain('TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are not set');
    expect(r.status).toBe(1);
  });

  test('an SMS step created after the start fails its send in production instead of writing a file', async () => {
    const sender = createSmsSender({
      NODE_ENV: 'production',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: undefined,
      dataDir: '/nonexistent',
    });
    await expect(sender.send({ from: '+15550001111', to: '+15550002222', body: 'x' })).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('TWILIO_AUTH_TOKEN not set'),
    });
  });
});
