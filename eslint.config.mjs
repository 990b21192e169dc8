import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.data/', '.cache/', 'test-artifacts/', 'coverage/', 'api/pages/**/*.client.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'describe', property: 'only' }, { object: 'it', property: 'only' }, { object: 'test', property: 'only' }, { object: 'describe', property: 'skip' }, { object: 'it', property: 'skip' }, { object: 'test', property: 'skip' }] },
  },
);
