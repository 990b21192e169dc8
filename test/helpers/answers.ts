import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { allRoutes } from '../../api/routes';
import { ANSWERS_ENV, operationKey, type AnswerRecord } from '../setup/operation-coverage';

let operations: Set<string> | undefined;
const written = new Set<string>();

function inTestBody(): { file: string; test: string } | null {
  const g = globalThis as { __fssInTestBody?: boolean; expect?: { getState(): { testPath?: string; currentTestName?: string } } };
  if (!g.__fssInTestBody || !g.expect) return null;
  const { testPath, currentTestName } = g.expect.getState();
  return testPath && currentTestName ? { file: testPath, test: currentTestName } : null;
}

function record(rec: AnswerRecord, dir: string): void {
  const key = `${rec.op}\0${rec.status}\0${rec.file}\0${rec.test}`;
  if (written.has(key)) return;
  written.add(key);
  fs.appendFileSync(path.join(dir, `answers-${process.pid}.jsonl`), `${JSON.stringify(rec)}\n`);
}

/**
 * Make the test app note each operation's 2xx/3xx answers given while a test's own function runs
 * (test/setup/operation-coverage.ts reads them at the end of the run). The recorder goes first in
 * Koa's middleware list, so it sees the final status; the operation is the route the router matched.
 */
export function recordAnswers(app: Koa): void {
  const dir = process.env[ANSWERS_ENV];
  if (!dir) return;
  operations ??= new Set(allRoutes().map((r) => operationKey(r.method, r.path)));
  const known = operations;
  app.middleware.unshift(async (ctx, next) => {
    await next();
    if (ctx.status < 200 || ctx.status >= 400) return;
    const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    if (typeof matched !== 'string') return;
    const op = operationKey(ctx.method === 'HEAD' ? 'GET' : ctx.method, matched);
    const where = known.has(op) ? inTestBody() : null;
    if (where) record({ op, status: ctx.status, ...where }, dir);
  });
}
