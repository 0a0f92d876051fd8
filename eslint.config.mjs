// One lint config for every workspace: TypeScript strict rules, no `any`; the Node scripts (.mjs/.cjs/.js)
// too; and the test rules that keep a green run honest (scripts/eslint/test-rules.mjs).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { testRules } from './scripts/eslint/test-rules.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.local/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'web/vite.config.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { tests: testRules },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'tests/no-focused-tests': 'error',
      'tests/no-undeclared-skip': 'error',
    },
  },
  {
    // Scripts run by Node: ES modules (.mjs) and CommonJS (.cjs, and the .js config files of the workspaces).
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
