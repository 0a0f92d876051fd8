// One lint config for every workspace: TypeScript strict rules, no `any`; the Node scripts (.mjs/.cjs/.js)
// too; the test rules that keep a green run honest (scripts/eslint/test-rules.mjs); and one way to the
// database in the services (scripts/eslint/database-rules.mjs).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { databaseRules } from './scripts/eslint/database-rules.mjs';
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
    // One way to the database (docs/architecture.md): SQL and TypeORM queries only in *.repository.ts.
    files: ['services/*/src/**/*.ts'],
    ignores: [
      // the repositories themselves
      '**/*.repository.ts',
      // the platform's internals: UnitOfWork, the outbox and its relay, singleton jobs, openDatabase
      'services/platform/**',
      // migrations are SQL by nature; seeds fill a database for demos and tests through a DataSource
      '**/database/migrations/**',
      'services/*/src/seed.ts',
      'services/announcements/src/comments/demo-comments.ts', // the demo comments seed.ts stores
      // tests reach the tables to set a scene and check what was stored
      '**/*.spec.ts',
    ],
    plugins: { database: databaseRules },
    rules: { 'database/sql-only-in-repositories': 'error' },
  },
  {
    // The web tests wait with Testing Library's waitFor/findBy*, whose ceiling web/src/test/setup.ts raises for
    // a busy machine; vitest's own vi.waitFor gives up after 1 s (a CI run failed on one that way).
    files: ['web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'waitFor',
          message: "use Testing Library's waitFor: vi.waitFor gives up after 1 s on a busy machine",
        },
      ],
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
