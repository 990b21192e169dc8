import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { client } from '../helpers/http';
import { useApiWorld } from '../helpers/world';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

function cli(args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
}

const w = useApiWorld({ team: false });

it('bootstrap --json prints exactly one JSON line with a working key', async () => {
  const { stdout } = await cli(
    ['bootstrap', '--json', '--team', 'Acme', '--plan', 'pro', '--scopes', 'forms:read user:read', '--timezone', 'Europe/Paris'],
    {
      DATABASE_URL: w.tdb.url,
      BASE_URL: 'https://api.example.test',
    },
  );
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const out = JSON.parse(lines[0]);
  expect(Object.keys(out).sort()).toEqual(['api_key', 'base_url', 'team_id', 'user_id']);
  expect(out.base_url).toBe('https://api.example.test');
  expect(out.api_key).toMatch(/^sk_live_/);
  const me = await client(w.app.baseUrl, out.api_key).get('/api/v1/me');
  expect(me.status).toBe(200);
  expect(me.body.data.timezone).toBe('Europe/Paris');
  expect((await client(w.app.baseUrl, out.api_key).get('/api/v1/team')).status).toBe(403);
  const team = await w.tdb.db('teams').where({ id: out.team_id }).first();
  expect(team!.plan).toBe('pro');

  const created = await cli(['keys', 'create', '--team-id', out.team_id, '--scopes', 'team:read', '--json'], { DATABASE_URL: w.tdb.url });
  const key = JSON.parse(created.stdout);
  expect(Object.keys(key).sort()).toEqual(['api_key', 'id', 'scopes']);
  expect(key.scopes).toEqual(['team:read']);
  expect((await client(w.app.baseUrl, key.api_key).get('/api/v1/team')).status).toBe(200);
  await cli(['keys', 'revoke', '--id', key.id], { DATABASE_URL: w.tdb.url });
  // Another process's credential cache lasts at most 3 s: the revoked key is refused within that (polled, with a deadline).
  const revokedAt = Date.now();
  let status = 200;
  while (status !== 401 && Date.now() - revokedAt < 6_000) {
    status = (await client(w.app.baseUrl, key.api_key).get('/api/v1/team')).status;
    if (status !== 401) await new Promise((r) => setTimeout(r, 100));
  }
  expect(status).toBe(401);
}, 60_000);

it('bootstrap prints the URL of the running `npm run dev` (BASE_URL wins; without a dev server, PORT)', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fss-cli-'));
  // A stand-in for the launcher: a live process with bin/dev.ts in its command line, and its dev.json.
  const launcher = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)', 'bin/dev.ts'], { stdio: 'ignore' });
  try {
    fs.writeFileSync(
      path.join(dataDir, 'dev.json'),
      JSON.stringify({ pid: launcher.pid, children: {}, base_url: 'http://localhost:4321' }),
    );
    const env = { DATABASE_URL: w.tdb.url, DATA_DIR: dataDir };
    const base = async (extra: Record<string, string> = {}) =>
      JSON.parse((await cli(['bootstrap', '--json'], { ...env, ...extra })).stdout).base_url;
    expect(await base()).toBe('http://localhost:4321');
    expect(await base({ BASE_URL: 'https://api.example.test' })).toBe('https://api.example.test');
    launcher.kill();
    await new Promise((r) => launcher.once('exit', r));
    expect(await base({ PORT: '3999' })).toBe('http://localhost:3999');
  } finally {
    launcher.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

it('rejects unknown scopes and bad arguments with exit code 2 and nothing on stdout', async () => {
  const err = await cli(['bootstrap', '--json', '--scopes', 'forms:read nope:x'], { DATABASE_URL: w.tdb.url }).catch((e) => e);
  expect(err.code).toBe(2);
  expect(err.stdout).toBe('');
  expect(err.stderr).toContain('nope:x');
});

it('stops the API at start-up with a message naming a bad config variable', async () => {
  const err = await run(process.execPath, ['--import', 'tsx', 'bin/api.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'abc', DATABASE_URL: w.tdb.url },
  }).catch((e) => e);
  expect(err.code).toBe(1);
  expect(err.stderr).toContain('PORT');
});
