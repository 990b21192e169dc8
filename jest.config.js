/** @type {import('jest').Config} */
module.exports = {
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60000,
  // Three suites at once on the two-core machines this runs on: many suites spend part of their
  // time waiting (child processes starting, Temporal timers, leases), so a third keeps both cores
  // busy (docs/architecture.md "Keep suites fast": the figures).
  maxWorkers: 3,
  // Jest's Node environment, telling the test app's answer recorder when a test's own function runs.
  testEnvironment: '<rootDir>/test/setup/environment.ts',
  // The default reporter; the ten slowest suites; on a full run, the operations without a behaviour test.
  reporters: ['default', '<rootDir>/test/setup/slowest-suites-reporter.js', '<rootDir>/test/setup/operation-coverage-reporter.js'],
};
