/**
 * The operation coverage check (test/setup/operation-coverage.ts; docs/architecture.md, tests): at
 * the end of a full run, every operation of the route table has an answer from a behaviour test. The
 * check itself runs in a reporter, after every suite; this file holds its rules to what they say and
 * shows the test app's recorder noting the answers it should and only those.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  ANSWERS_ENV,
  coveredOperations,
  readAnswers,
  ROUTE_TABLE_READERS,
  ROUTE_TABLE_SWEEPS,
  uncoveredOperations,
  type AnswerRecord,
  type TestOutcome,
} from '../setup/operation-coverage';
import { useApiWorld } from '../helpers/world';

const ROOT = path.resolve(__dirname, '..', '..');

describe('what counts as a behaviour test', () => {
  const op = 'DELETE /api/v1/things/:id';
  const answer = (over: Partial<AnswerRecord> = {}): AnswerRecord => ({
    op,
    status: 204,
    file: '/t/a.test.ts',
    test: 'things deletes',
    ...over,
  });
  const outcomes = (over: Partial<TestOutcome> = {}) =>
    new Map([['/t/a.test.ts', [{ name: 'things deletes', passed: true, assertions: 2, ...over }]]]);
  const noSweep = () => false;

  it('a 2xx or 3xx answer in a passing test with an assertion covers its operation', () => {
    expect([...coveredOperations([answer()], outcomes(), noSweep)]).toEqual([op]);
    expect([...coveredOperations([answer({ status: 303 })], outcomes(), noSweep)]).toEqual([op]);
  });

  it.each([
    ['an error answer', [answer({ status: 404 })], outcomes(), noSweep],
    ['a failing test', [answer()], outcomes({ passed: false }), noSweep],
    ['a test without assertions', [answer()], outcomes({ assertions: 0 }), noSweep],
    ['a test that is not in the results', [answer({ test: 'another' })], outcomes(), noSweep],
    ['a route-table sweep', [answer()], outcomes(), (f: string) => f === '/t/a.test.ts'],
  ])('does not count %s', (_name, records, results, isSweep) => {
    expect(uncoveredOperations([op, 'GET /x'], coveredOperations(records, results, isSweep))).toEqual([op, 'GET /x']);
  });

  it('each file naming the route table is listed as a sweep or as a reader, and each listed file exists', () => {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'test'], { cwd: ROOT, encoding: 'utf8' });
    const naming = out
      .split('\n')
      .filter((f) => f.endsWith('.test.ts') && /\ballRoutes\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')))
      .sort();
    expect(naming).toContain('test/foundation/scope-matrix.test.ts');
    expect(naming).toEqual([...ROUTE_TABLE_SWEEPS, ...ROUTE_TABLE_READERS].sort());
    expect(ROUTE_TABLE_SWEEPS.filter((f) => ROUTE_TABLE_READERS.includes(f))).toEqual([]);
  });
});

describe("the test app's recorder", () => {
  const w = useApiWorld();
  const dir = process.env[ANSWERS_ENV];
  const mine = () => (dir ? readAnswers(dir).filter((r) => r.file === __filename) : []);

  beforeAll(async () => {
    expect((await w.api.get('/api/v1/forms')).status).toBe(200); // set-up: not a test's own call
  });

  it('has its run folder from the global set-up', () => {
    expect(dir).toBeTruthy();
    expect(fs.existsSync(dir!)).toBe(true);
  });

  it('notes a success answer given in a test body: the operation, status, file and test', async () => {
    const res = await w.api.get(`/api/v1/forms/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`);
    expect(res.status).toBe(404);
    const me = await w.api.get('/api/v1/me');
    expect(me.status).toBe(200);
    expect(mine()).toEqual([{ op: 'GET /api/v1/me', status: 200, file: __filename, test: expect.getState().currentTestName }]);
  });

  it('does not note the calls made by a hook or with an error answer', () => {
    const ops = mine().map((r) => r.op);
    expect(ops).not.toContain('GET /api/v1/forms');
    expect(ops).not.toContain('GET /api/v1/forms/:id');
  });
});
