import fs from 'node:fs';
import path from 'node:path';

/**
 * Which operations of the route table no behaviour test exercised (docs/architecture.md, tests).
 * The test app records every 2xx/3xx answer given while a test's own function runs
 * (test/helpers/answers.ts) into the run's folder; at the end of a full run the reporter
 * (operation-coverage-reporter.js) keeps the answers of tests that passed with at least one
 * assertion, outside the route-table sweeps (ROUTE_TABLE_SWEEPS), and fails the run when an operation has none.
 */

/** One answer: the operation (`GET /api/v1/forms/:id`), its status, and the test that asked. */
export interface AnswerRecord {
  op: string;
  status: number;
  /** The test file's absolute path. */
  file: string;
  /** The test's full name (its describe titles and its own, as jest reports it). */
  test: string;
}

export interface TestOutcome {
  name: string;
  passed: boolean;
  assertions: number;
}

/** The run folder's environment variable, set by the global set-up (test/setup/global-setup.ts). */
export const ANSWERS_ENV = 'FSS_OPERATION_ANSWERS';

/**
 * The files that call every operation of the route table with made-up input (the scope, role and
 * bad-input matrices): an answer there proves the walls, not the operation's effect, so it does not
 * count. Paths from the repository root.
 */
export const ROUTE_TABLE_SWEEPS = [
  'test/foundation/bad-input.test.ts',
  'test/foundation/role-matrix.test.ts',
  'test/foundation/scope-matrix.test.ts',
];

/**
 * The other files that name the route table (`allRoutes`): they read it (the OpenAPI document, its
 * examples, the response schemas) and call no operation from it, so their answers count. A new file
 * naming the route table goes in one of the two lists (test/foundation/operation-coverage.test.ts).
 */
export const ROUTE_TABLE_READERS = [
  'test/docs/examples.test.ts',
  'test/docs/openapi-lint.test.ts',
  'test/foundation/api.test.ts',
  'test/foundation/response-schemas.test.ts',
];

export const operationKey = (method: string, routePath: string) => `${method.toUpperCase()} ${routePath}`;

/** The operations some passing, asserting, non-sweep test got a 2xx/3xx answer from. */
export function coveredOperations(
  records: AnswerRecord[],
  outcomes: Map<string, TestOutcome[]>,
  isSweepFile: (file: string) => boolean,
): Set<string> {
  const covered = new Set<string>();
  for (const r of records) {
    if (r.status < 200 || r.status >= 400 || isSweepFile(r.file)) continue;
    const test = outcomes.get(r.file)?.find((t) => t.name === r.test);
    if (test?.passed && test.assertions > 0) covered.add(r.op);
  }
  return covered;
}

export function uncoveredOperations(operations: string[], covered: Set<string>): string[] {
  return operations.filter((op) => !covered.has(op)).sort();
}

/** Every record the run's workers wrote (one JSON line each, a file per worker process). */
export function readAnswers(dir: string): AnswerRecord[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AnswerRecord),
    );
}

/** The report's text: the operations without a behaviour test, and what counts as one. */
export function describeUncovered(uncovered: string[]): string {
  return [
    `${uncovered.length} operation(s) of the route table have no behaviour test:`,
    ...uncovered.map((op) => `  ${op}`),
    'A behaviour test calls the operation from the body of a passing test with at least one assertion,',
    'gets a 2xx/3xx answer, and is not one of the route-table sweeps (ROUTE_TABLE_SWEEPS in test/setup/operation-coverage.ts).',
  ].join('\n');
}
