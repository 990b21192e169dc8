/**
 * A jest reporter: at the end of a run of every suite, the operations of the route table that no
 * behaviour test exercised fail the run (the rules are in operation-coverage.ts). A run of some
 * suites only checks nothing, as most operations are then not called; OPERATION_COVERAGE=report
 * prints the list anyway. Plain JavaScript: jest loads reporters without the TypeScript transform,
 * so the TypeScript parts (the rules, the route table) are loaded through tsx.
 */
const fs = require('node:fs');
const path = require('node:path');

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

class OperationCoverageReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const ran = new Set(results.testResults.map((r) => r.testFilePath));
    const all = testFiles(path.join(this.rootDir, 'test'));
    const full = all.every((f) => ran.has(f)) && !results.wasInterrupted;
    if (!full && process.env.OPERATION_COVERAGE !== 'report') return;

    const tsx = require('tsx/cjs/api');
    const rules = tsx.require('./operation-coverage.ts', __filename);
    const { allRoutes } = tsx.require('../../api/routes/index.ts', __filename);
    const operations = allRoutes().map((r) => rules.operationKey(r.method, r.path));
    const outcomes = new Map(
      results.testResults.map((r) => [
        r.testFilePath,
        r.testResults.map((t) => ({ name: t.fullName, passed: t.status === 'passed', assertions: t.numPassingAsserts })),
      ]),
    );
    const isSweepFile = (file) => rules.ROUTE_TABLE_SWEEPS.includes(path.relative(this.rootDir, file).split(path.sep).join('/'));
    const records = rules.readAnswers(process.env[rules.ANSWERS_ENV] ?? '');
    const uncovered = rules.uncoveredOperations(operations, rules.coveredOperations(records, outcomes, isSweepFile));
    if (uncovered.length === 0) {
      process.stderr.write(`\nOperation coverage: each of the ${operations.length} operations has a behaviour test.\n`);
      return;
    }
    const text = rules.describeUncovered(uncovered);
    process.stderr.write(`\n${full ? '' : '(a partial run: most operations are not called) '}${text}\n`);
    if (full) this.error = new Error(text);
  }

  getLastError() {
    return this.error;
  }
}

module.exports = OperationCoverageReporter;
