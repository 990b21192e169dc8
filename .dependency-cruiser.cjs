// The walls of the production code, read from the layer table in docs/architecture.md: that table
// is the one source. Each row names a folder and the folders it may import (in backticks); those
// after "types only:" may be imported with `import type` only. Any cycle fails too.
const fs = require('node:fs');
const path = require('node:path');

const DOC = path.join(__dirname, 'docs', 'architecture.md');

/** `workflows/*\/contract.ts` → a regex source matching that path; `api/` → the folder. */
function pattern(glob) {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+');
  return `^${escaped}`;
}

function layerTable() {
  const lines = fs.readFileSync(DOC, 'utf8').split('\n');
  const head = lines.findIndex((l) => /^\|\s*folder\s*\|\s*holds\s*\|\s*may import\s*\|/.test(l));
  if (head < 0) throw new Error(`${DOC}: the layer table (| folder | holds | may import |) is missing`);
  const rows = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const folder = /^`([^`]+)`$/.exec(cells[0])?.[1];
    if (!folder) throw new Error(`${DOC}: a layer row must start with one folder in backticks: ${line}`);
    const [values, types = ''] = cells[2].split(/types only:/);
    const names = (s) => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    rows.push({ folder, values: names(values), types: names(types) });
  }
  return rows;
}

const rows = layerTable();
const layers = rows.map((r) => r.folder);
const anyLayer = `^(${layers.map((f) => f.replace(/\/$/, '')).join('|')})/`;

const forbidden = [
  {
    name: 'no-circular',
    comment: 'No import cycle in the production code, type-only imports included (docs/architecture.md).',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
];
for (const { folder, values, types } of rows) {
  const allowed = [folder, ...values, ...types].map(pattern);
  forbidden.push({
    name: `layer:${folder}`,
    comment: `${folder} may import ${[...values, ...types.map((t) => `${t} (types only)`)].join(', ') || 'nothing of the other layers'} (docs/architecture.md, the layer table)`,
    severity: 'error',
    from: { path: pattern(folder) },
    to: { path: anyLayer, pathNot: allowed },
  });
  if (types.length > 0) {
    forbidden.push({
      name: `layer:${folder}:types-only`,
      comment: `${folder} may import ${types.join(', ')} with \`import type\` only (docs/architecture.md, the layer table)`,
      severity: 'error',
      from: { path: pattern(folder) },
      // a file the row also names as a value import (`domain/ssrf.ts` of `core/`) is not types-only
      to: { path: types.map(pattern), ...(values.length ? { pathNot: values.map(pattern) } : {}), dependencyTypesNot: ['type-only'] },
    });
  }
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|test|scripts)/|\\.d\\.ts$|(^|/)db/tables\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
