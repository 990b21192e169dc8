// The worker never loads the HTTP edge: walk the import graph (value and type imports alike) from
// the worker's entry point and from the workflow barrel, and look for any file under api/.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:require|import)\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  }
  return null;
}

function importGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [path.join(root, entry)];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2]);
      if (target) stack.push(target);
    }
  }
  return new Set([...seen].map((f) => path.relative(root, f)));
}

describe('one-way dependencies', () => {
  test.each(['bin/worker.ts', 'workflows/index.ts', 'activities/index.ts'])('%s loads no file under api/', (entry) => {
    const files = importGraph(entry);
    expect(files.size).toBeGreaterThan(3); // the walk really followed imports
    expect([...files].filter((f) => f.startsWith('api/'))).toEqual([]);
  });

  test('the API reaches the services (the walk would see a wall crossed)', () => {
    const files = [...importGraph('bin/api.ts')];
    expect(files.some((f) => f.startsWith('services/'))).toBe(true);
    expect(files.some((f) => f.startsWith('api/'))).toBe(true);
  });
});
