import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  parseConfig,
  productionCalendarKeyProblem,
  productionProtectionProblem,
  productionSendingProblem,
  productionSuppressionKeyProblem,
} from '../../core/config';
import { NODE_LTS_VERSION } from '../../scripts/tool-paths';

/**
 * Docker cannot build or run here (no daemon, no compose plugin), so the Dockerfile and
 * docker-compose.yml are checked by reading them: the stages, the user, the commands against what
 * `npm run build` emits, the Temporal images, and the app's environment against the production
 * checks of core/config.ts. The compiled entry points themselves run in production-smoke.test.ts.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');

interface Instruction {
  op: string;
  args: string;
}
/** The Dockerfile's instructions (continuation lines joined, comments dropped), split into stages at FROM. */
function dockerStages(): { args: Record<string, string>; stages: Instruction[][] } {
  const lines = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Instruction[][] = [];
  for (const line of lines) {
    const [, op, rest] = /^(\S+)\s+(.*)$/.exec(line)!;
    const ins = { op: op.toUpperCase(), args: rest.trim() };
    if (ins.op === 'FROM') stages.push([]);
    if (ins.op === 'ARG' && stages.length === 0) {
      const [k, v] = ins.args.split('=');
      args[k] = v;
    }
    stages.at(-1)?.push(ins);
  }
  return { args, stages };
}

/** What scripts/build.js compiles: tsconfig.build.json's entry points, as their dist/ paths. */
function builtEntryPoints(): string[] {
  const files = (JSON.parse(read('tsconfig.build.json')) as { files: string[] }).files;
  return files.filter((f) => f.startsWith('bin/')).map((f) => `dist/${f.replace(/\.ts$/, '.js')}`);
}

describe('Dockerfile', () => {
  const { args, stages } = dockerStages();
  const [build, final] = stages;

  it('builds in two stages on the Node LTS line CI runs', () => {
    expect(stages).toHaveLength(2);
    expect(args.NODE_VERSION).toBe(NODE_LTS_VERSION);
    expect(Number(NODE_LTS_VERSION.split('.')[0]) % 2).toBe(0); // even majors are the LTS lines
    expect(build[0].args).toBe('node:${NODE_VERSION}-bookworm-slim AS build');
    expect(final[0].args).toBe('node:${NODE_VERSION}-bookworm-slim');
  });

  it('compiles and prunes in the build stage; the final stage takes only dist/, the pruned node_modules and package.json', () => {
    const runs = build.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /npm run build && npm prune --omit=dev --omit=optional/.test(r))).toBe(true);
    for (const copy of build.filter((i) => i.op === 'COPY')) {
      for (const src of copy.args.split(/\s+/).slice(0, -1)) expect(fs.existsSync(path.join(ROOT, src))).toBe(true);
    }
    const copies = final.filter((i) => i.op === 'COPY').map((i) => i.args);
    expect(copies).toEqual([
      '--from=build /app/package.json ./',
      '--from=build /app/node_modules ./node_modules',
      '--from=build /app/dist ./dist',
    ]);
    // No install in the final stage (nothing could bring tsx or TypeScript back).
    expect(final.filter((i) => i.op === 'RUN').map((i) => i.args)).toEqual(['mkdir -p /app/.data && chown node:node /app/.data']);
    expect(final.some((i) => i.op === 'ENV' && i.args === 'NODE_ENV=production')).toBe(true);
  });

  it('runs as a non-root user, the compiled API by default', () => {
    const users = final.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users).toEqual(['node']);
    const cmd = JSON.parse(final.find((i) => i.op === 'CMD')!.args) as string[];
    expect(cmd).toEqual(['node', 'dist/bin/api.js']);
    expect(builtEntryPoints()).toContain(cmd[1]);
  });
});

describe('package.json', () => {
  const pkg = JSON.parse(read('package.json')) as {
    dependencies: Record<string, string>;
    scripts: Record<string, string>;
    engines: { node: string };
  };

  it('has neither tsx nor TypeScript among the production dependencies', () => {
    expect(Object.keys(pkg.dependencies).filter((d) => d === 'tsx' || d === 'typescript' || d.startsWith('@types/'))).toEqual([]);
  });

  it('starts the compiled entry points, and names Node 24 in engines', () => {
    const targets = ['start', 'start:worker', 'start:inbound'].map((s) => pkg.scripts[s]);
    expect(targets).toEqual(['node dist/bin/api.js', 'node dist/bin/worker.js', 'node dist/bin/inbound.js']);
    for (const t of targets) expect(builtEntryPoints()).toContain(t.replace('node ', ''));
    expect(pkg.engines.node).toContain(`^${NODE_LTS_VERSION.split('.')[0]}.`);
  });
});

describe('docker-compose.yml', () => {
  type Service = {
    image?: string;
    build?: string;
    command?: string[];
    entrypoint?: string[];
    environment?: Record<string, string>;
    depends_on?: unknown;
  };
  const compose = parseYaml(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
  const { services } = compose;

  it('runs the API, the worker and the listener from the one image, each a compiled entry point', () => {
    const app = ['api', 'worker', 'inbound'].map((name) => services[name]);
    expect(app.map((s) => [s.build, s.image])).toEqual([
      ['.', 'fss-app'],
      ['.', 'fss-app'],
      ['.', 'fss-app'],
    ]);
    expect(app.map((s) => s.command)).toEqual([
      ['node', 'dist/bin/api.js'],
      ['node', 'dist/bin/worker.js'],
      ['node', 'dist/bin/inbound.js'],
    ]);
    for (const s of app) expect(builtEntryPoints()).toContain(s.command![1]);
  });

  it("uses Temporal's production images, the schema set up by temporal-sql-tool before the server starts", () => {
    const images = Object.values(services).map((s) => s.image ?? '');
    expect(images.filter((i) => i.includes('auto-setup'))).toEqual([]);
    const server = services.temporal.image!;
    expect(server).toMatch(/^temporalio\/server:\d+\.\d+\.\d+$/);
    const version = server.split(':')[1];
    expect(services['temporal-schema'].image).toMatch(new RegExp(`^temporalio/admin-tools:${version.replace(/\./g, '\\.')}-`));
    expect(services['temporal-setup'].image).toBe(services['temporal-schema'].image);
    expect(services['temporal-ui'].image).toMatch(/^temporalio\/ui:/);
    const script = services['temporal-schema'].command!.join('\n');
    for (const step of ['temporal-sql-tool', 'create-database', 'setup-schema', 'update-schema', 'temporal_visibility'])
      expect(script).toContain(step);
    expect(services.temporal.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(services['temporal-setup'].command!.join('\n')).toContain('operator namespace create');
  });

  it('has shell scripts (the one-shot Temporal jobs) that parse: sh -n on each, as compose hands it over ($$ → $)', () => {
    const scripts = Object.entries(services).filter(([, s]) => s.entrypoint?.join(' ') === '/bin/sh -c');
    expect(scripts.map(([name]) => name).sort()).toEqual(['temporal-schema', 'temporal-setup']);
    for (const [name, s] of scripts) {
      const check = spawnSync('sh', ['-n', '-c', s.command!.join('\n').replace(/\$\$/g, '$')], { encoding: 'utf8' });
      expect({ name, status: check.status, stderr: check.stderr }).toEqual({ name, status: 0, stderr: '' });
    }
  });

  it("gives the app every setting production requires (the checks of core/config.ts pass on compose's environment)", () => {
    // ${VAR:?message} must come from the operator: a valid value stands in for it; ${VAR:-default} takes its default.
    const env = Object.fromEntries(
      Object.entries(services.api.environment!).map(([k, v]) => [
        k,
        String(v)
          .replace(/^\$\{(\w+):\?[^}]*\}$/, (_m, name: string) =>
            name === 'SMTP_URL' ? 'smtp://u:p@smtp.example.com:587' : Buffer.alloc(32, 7).toString('base64'),
          )
          .replace(/^\$\{\w+:-([^}]*)\}$/, '$1'),
      ]),
    );
    const config = parseConfig(env);
    expect(config.NODE_ENV).toBe('production');
    const problems = [
      productionSendingProblem,
      productionCalendarKeyProblem,
      productionSuppressionKeyProblem,
      productionProtectionProblem,
    ].map((check) => check(config));
    expect(problems).toEqual([null, null, null, null]);
  });
});
