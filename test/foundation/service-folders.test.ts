// No two-way folder pairs inside services/: when services/a/ imports services/b/, services/b/
// imports nothing of services/a/. A top-level file and a folder of the same name
// (services/accounts.ts beside services/accounts/) count as one unit, and so do the files
// directly in services/ each on its own (events.ts, deps.ts, …). Type imports count too: a pair
// that only types tie together is still two things that must change together.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const services = path.join(root, 'services');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:require|import)\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  }
  return null;
}

/** The unit a file under services/ belongs to: its first folder, or its own name without `.ts`. */
export function unitOf(file: string): string | null {
  const rel = path.relative(services, file);
  if (rel.startsWith('..')) return null;
  const first = rel.split(path.sep)[0];
  return first.replace(/\.ts$/, '');
}

/** Every (from → to) import between two different units, with one file that makes it. */
export function unitEdges(): Map<string, string> {
  const edges = new Map<string, string>();
  for (const file of filesUnder(services)) {
    const from = unitOf(file)!;
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2]);
      const to = target ? unitOf(target) : null;
      if (!to || to === from) continue;
      const key = `${from} → ${to}`;
      if (!edges.has(key)) edges.set(key, path.relative(root, file));
    }
  }
  return edges;
}

describe('services/ folders depend one way', () => {
  test('no two units import each other', () => {
    const edges = unitEdges();
    expect(edges.size).toBeGreaterThan(10); // the scan really followed imports
    const pairs = [...edges.keys()]
      .map((key) => key.split(' → '))
      .filter(([from, to]) => from < to && edges.has(`${to} → ${from}`))
      .map(([a, b]) => `${a} ↔ ${b} (${edges.get(`${a} → ${b}`)}; ${edges.get(`${b} → ${a}`)})`);
    expect(pairs).toEqual([]);
  });

  test('mail owns what came back: services/mail/ imports nothing of services/sequences/ (only services/sequence-exits/)', () => {
    const edges = unitEdges();
    expect(edges.has('mail → sequences')).toBe(false);
    expect(edges.has('mail → sequence-exits')).toBe(true);
  });

  test('a file and a folder of the same name are one unit', () => {
    expect(unitOf(path.join(services, 'accounts.ts'))).toBe(unitOf(path.join(services, 'accounts', 'tokens.ts')));
  });
});
