import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'dist');
const SOURCES = ['api', 'activities', 'bin', 'core', 'db', 'domain', 'services', 'temporal', 'workflows'];
const SOURCE_FILES = ['knexfile.ts', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js', 'package-lock.json'];

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

/**
 * The production build (`npm run build`, scripts/build.js) in dist/: run it unless dist/ holds one
 * made after the last change to the sources (`npm test` builds just before jest, so the suite
 * reuses that one; a test file run alone builds).
 */
export function ensureBuilt(): void {
  const stamp = path.join(DIST, 'build-info.json');
  const sources = Math.max(
    ...SOURCES.map((d) => newestMtime(path.join(ROOT, d))),
    ...SOURCE_FILES.map((f) => newestMtime(path.join(ROOT, f))),
  );
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs > sources) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}
