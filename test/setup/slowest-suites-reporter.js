/**
 * A jest reporter, beside the default one: at the end of a run of more than one suite, the ten
 * slowest suites (test files) with their wall time, so a suite that grows slow is seen when it does
 * (docs/architecture.md, tests). Plain JavaScript: jest loads reporters without the TypeScript transform.
 */
const path = require('node:path');

const SHOWN = 10;

class SlowestSuitesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((r) => ({ file: path.relative(this.rootDir, r.testFilePath), ms: r.perfStats.end - r.perfStats.start }))
      .filter((s) => Number.isFinite(s.ms) && s.ms > 0)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (suites.length < 2) return;
    const width = Math.max(...suites.map((s) => s.file.length));
    const lines = suites.map((s) => `  ${s.file.padEnd(width)}  ${(s.ms / 1000).toFixed(1).padStart(6)} s`);
    process.stderr.write(`\nSlowest ${suites.length} suites:\n${lines.join('\n')}\n`);
  }
}

module.exports = SlowestSuitesReporter;
