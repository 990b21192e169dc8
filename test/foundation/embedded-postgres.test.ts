import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensureEmbeddedPostgres } from '../../db/embedded';

/**
 * The embedded PostgreSQL starts from a checkout in a private folder (mode 700, as /root or
 * `mktemp -d`). As root, PostgreSQL runs as the `postgres` user, who cannot enter that folder:
 * the cluster then lives in a folder that user owns, and `.data/pg-<name>.json` remembers it.
 */
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

test(`starts, keeps its data and restarts from a mode-700 folder (running as ${isRoot ? 'root' : 'a normal user'})`, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fss-private-'));
  fs.chmodSync(dir, 0o700);
  const dataDir = path.join(dir, 'app', '.data');
  let clusterDir: string | undefined;
  try {
    const first = await ensureEmbeddedPostgres({ dataDir, name: 'private' });
    clusterDir = first.clusterDir;
    try {
      expect(first.reused).toBe(false);
      // As root the cluster cannot stay in the private folder; as a normal user it does.
      expect(first.clusterDir.startsWith(dir)).toBe(!isRoot);
      const state = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-private.json'), 'utf8'));
      expect(state).toEqual({ port: first.port, cluster_dir: first.clusterDir });
      await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
    } finally {
      await first.stop();
    }
    const second = await ensureEmbeddedPostgres({ dataDir, name: 'private' });
    try {
      expect(second.clusterDir).toBe(clusterDir);
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (clusterDir && !clusterDir.startsWith(dir)) fs.rmSync(path.dirname(clusterDir), { recursive: true, force: true });
  }
}, 120_000);
