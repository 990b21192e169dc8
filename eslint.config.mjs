import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

// The walls of docs/architecture.md: api → services → workflow contracts, domain, db, core.
const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`, `${m}/*`, `node:${m}/*`]);
const apiPatterns = [
  { group: ['**/api', '**/api/**'], message: 'Only api/ and the entry points load the HTTP edge (docs/architecture.md).' },
  {
    group: ['koa', 'koa-*', '@koa/*', '@types/koa*'],
    message:
      'Koa belongs to api/: pages, cookies, redirects and ctx stay at the HTTP edge; a use case takes (deps, input) (docs/architecture.md).',
  },
];
const ioModules = [
  'fs',
  'fs/promises',
  'child_process',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'tls',
  'worker_threads',
  'cluster',
  'net',
];
const ioPaths = [
  ...ioModules
    .flatMap((m) => [m, `node:${m}`])
    .map((name) =>
      name.endsWith('net')
        ? { name, allowImportNames: ['isIP', 'isIPv4', 'isIPv6'], message: 'domain/ holds pure logic: no I/O.' }
        : { name, message: 'domain/ holds pure logic: no I/O.' },
    ),
  ...[
    'pg',
    'knex',
    'nodemailer',
    'twilio',
    'ioredis',
    'tsdav',
    '@temporalio/client',
    '@temporalio/worker',
    '@temporalio/activity',
    '@temporalio/workflow',
  ].map((name) => ({
    name,
    message: 'domain/ holds pure logic: no I/O.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.data/',
      '.cache/',
      'dist/',
      'test-artifacts/',
      'coverage/',
      'api/pages/**/*.client.js',
      'eslint.config.mjs',
      'test/docs/client/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Workflows are deterministic and bundled for the sandbox: no Node built-ins, and nothing with I/O
    // (db/, core/, services/, api/) other than types.
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins
            .filter((m) => !m.includes('*'))
            .map((name) => ({ name, message: 'Workflows run in the deterministic sandbox: no Node built-ins.' })),
          patterns: [
            {
              group: nodeBuiltins.filter((m) => m.includes('*')),
              message: 'Workflows run in the deterministic sandbox: no Node built-ins.',
            },
            {
              group: ['**/db', '**/db/**', '**/core/**', '**/services/**', '**/api/**', '**/activities', '**/activities/**'],
              allowTypeImports: true,
              message: 'Workflows import only types from db/, core/, services/, api/ and activities/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'activities/**/*.ts',
      'temporal/**/*.ts',
      'services/**/*.ts',
      'db/**/*.ts',
      'core/**/*.ts',
      'workflows/**/*.ts',
      'bin/worker.ts',
      'inbound/**/*.ts',
    ],
    ignores: ['workflows/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: apiPatterns }] },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ioPaths,
          patterns: [
            ...apiPatterns,
            {
              group: ['**/db', '**/db/**', '**/services/**', '**/temporal/**', '**/activities/**'],
              message: 'domain/ holds pure logic: no I/O.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'describe', property: 'only' },
        { object: 'it', property: 'only' },
        { object: 'test', property: 'only' },
        { object: 'describe', property: 'skip' },
        { object: 'it', property: 'skip' },
        { object: 'test', property: 'skip' },
      ],
    },
  },
);
