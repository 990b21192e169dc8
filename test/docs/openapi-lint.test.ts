import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../api/http/openapi';
import { allRoutes } from '../../api/routes';

/**
 * The generated OpenAPI document passes `@redocly/cli lint` with the committed config
 * (redocly.yaml: recommended-strict, examples validated against their schemas; each rule turned
 * off says why).
 */
const root = path.join(__dirname, '..', '..');

it('the OpenAPI document is lint-clean (Redocly)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument(allRoutes(), 'http://localhost:3000'), null, 2));
  const bin = path.join(root, 'node_modules', '.bin', 'redocly');
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const run = promisify(execFile);
  const result = await run(bin, ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
  fs.rmSync(dir, { recursive: true, force: true });
  const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
    totals: { errors: number; warnings: number };
    problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
  };
  const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  expect(result.code).toBe(0);
}, 120_000);
