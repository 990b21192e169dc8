import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { makeContact } from './support/factory';
import { startWorld, type World } from './support/world';

/**
 * The worker process dies in the middle of a send: the SMTP server has the whole message but the
 * worker is SIGKILLed before it hears "250 OK". The (local) send activity runs again on a new worker,
 * finds its (enrollment, step) claim in Postgres and does not send again: exactly one email arrives.
 */
let w: World;
let child: ChildProcess | undefined;
let killed = false;

beforeAll(async () => {
  w = await startWorld({
    worker: false,
    beforeAccept: async () => {
      if (!child || killed) return;
      killed = true;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  });
}, 60_000);
afterAll(async () => {
  if (child && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  await w?.close();
});

function startChildWorker(): Promise<ChildProcess> {
  const p = fork(path.join(__dirname, 'support', 'worker-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: w.tdb.url,
      TEMPORAL_ADDRESS: w.env.address,
      SMTP_URL: w.smtp.url,
      BASE_URL: w.app.baseUrl,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    p.once('message', () => resolve(p));
    p.once('exit', (code) => reject(new Error(`child worker exited early (${code})`)));
  });
}

test('a worker killed mid-send: the contact still gets exactly one message', async () => {
  const seq = (
    await w.dash.post('/api/v1/sequences', {
      name: 'Crash',
      status: 'active',
      steps: [{ channel: 'email', delay: { value: 0, unit: 'minutes' }, subject: 'Only once', body: 'Hello {{first_name}}' }],
    })
  ).body.data;
  const contact = await makeContact(w.tdb.db, w.team.teamId);
  child = await startChildWorker();
  const childExited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
  const e = (await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: contact })).body.data[0];
  await w.waitStarted(`enrollment-${e.id}`);
  await childExited;
  expect(killed).toBe(true);
  expect(w.smtp.messages).toHaveLength(1);
  const claim = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first();
  expect(claim!.status).toBe('claimed'); // the dead worker never recorded the outcome

  // A new worker picks up the workflow task once the dead worker's times out; the replayed local
  // send finds the claim and does not send again.
  await w.startWorker();
  const result = await w.result(e.id);
  expect(result.status).toBe('completed');
  expect(w.smtp.messages).toHaveLength(1);
  expect(w.smtp.messages[0].parsed.subject).toBe('Only once');
  const after = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id });
  expect(after).toHaveLength(1);
  expect(after[0].status).toBe('unknown');
}, 120_000);
