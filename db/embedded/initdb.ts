/** Create a new cluster with PostgreSQL's own initdb, as the user the server will run as. */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { isRoot, type Placement } from './placement';

export const PG_USER = 'postgres';
export const PG_PASSWORD = 'postgres';

export async function initialiseCluster(place: Placement, log: (line: string) => void): Promise<void> {
  const { clusterDir, ids } = place;
  if (fs.existsSync(clusterDir) && fs.readdirSync(clusterDir).length > 0) {
    log(`${clusterDir} has no PG_VERSION (an earlier initialisation did not finish): recreating it`);
    fs.rmSync(clusterDir, { recursive: true, force: true });
  }
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const pwfile = `${clusterDir}.pwfile`;
  fs.writeFileSync(pwfile, `${PG_PASSWORD}\n`, { mode: 0o600 });
  if (ids.uid !== undefined && ids.gid !== undefined) {
    fs.chownSync(clusterDir, ids.uid, ids.gid);
    fs.chownSync(pwfile, ids.uid, ids.gid);
  }
  log(`initialising a new PostgreSQL cluster in ${clusterDir}`);
  const initdb = path.join(place.nativeDir, 'bin', 'initdb');
  const args = [
    `--pgdata=${clusterDir}`,
    '--auth=scram-sha-256',
    `--username=${PG_USER}`,
    `--pwfile=${pwfile}`,
    '--encoding=UTF8',
    '--locale=C',
  ];
  try {
    const output = await run(initdb, args, place);
    if (output.code !== 0) {
      throw new Error(`initdb exited with ${output.code}:\n${output.text.trim().slice(-4000)}`);
    }
  } catch (e) {
    const hint = isRoot() ? ` (it runs as the \`postgres\` system user, who must be able to reach ${initdb} and ${clusterDir})` : '';
    throw new Error(`initdb failed for ${clusterDir}${hint}: ${(e as Error).message}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

/** Run a program to its end; a failure to start it (EACCES, ENOENT) rejects instead of crashing the process. */
function run(file: string, args: string[], place: Placement): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...place.ids,
      cwd: place.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.once('error', (e) => reject(new Error(`could not run ${file}: ${e.message}`)));
    child.once('close', (code) => resolve({ code, text }));
  });
}
