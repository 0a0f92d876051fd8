// Shared jest settings: @swc/jest, node environment. Each workspace passes its own roots/testMatch.
// Tests run against the sources of proto and the platform, never a dist/ that may be stale.
const path = require('node:path');

const src = (workspace, file = 'index.ts') => path.join(__dirname, workspace, 'src', file);

const preset = (overrides = {}) => ({
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        // Transpile only, each file on its own (the type checks of tests are `make lint`'s): swc does it
        // several times faster than the TypeScript compiler, which matters on a cold cache (every CI run).
        // Legacy decorators with their metadata, as tsc emits them for NestJS and TypeORM.
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper: {
    '^@irp/proto$': src('proto'),
    '^@irp/proto/testing$': src('proto', 'testing/index.ts'),
    '^@irp/proto/signing$': src('proto', 'signing/index.ts'),
    '^@irp/platform$': src('services/platform'),
    '^@irp/platform/testing$': src('services/platform', 'testing/index.ts'),
    '^@irp/platform/errors$': src('services/platform', 'errors.ts'),
    '^@irp/standins/kit$': src('standins', 'kit/index.ts'),
    '^@irp/standins/asx$': src('standins', 'asx/asx-standin.ts'),
    '^@irp/standins/email-providers$': src('standins', 'email-providers/providers-standin.ts'),
    '^@irp/standins/accounting$': src('standins', 'accounting/accounting-standin.ts'),
    '^@irp/standins/places$': src('standins', 'places/places-standin.ts'),
    '^@irp/standins/market$': src('standins', 'market/market-standin.ts'),
    // The ASX stand-in reuses the announcements mock source's history and PDFs (its sources in tests).
    '^@irp/announcements/dist/(.*)$': path.join(__dirname, 'services/announcements/src/$1'),
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['**/*.spec.ts'],
  ...overrides,
});

module.exports = preset;

/**
 * An integration project (`<workspace>/jest.int.config.js`): its test/ folder's `*.int-spec.ts`, each file
 * starting with the services' consumer groups at the end of every topic (nothing an earlier file left
 * behind is done by this one's services).
 */
module.exports.integration = (overrides = {}) =>
  preset({
    roots: ['<rootDir>/test'],
    testMatch: ['**/*.int-spec.ts'],
    setupFilesAfterEnv: [src('services/platform', 'testing/fresh-backlog.setup.ts')],
    // Stops what a file started when it ends, even when its set-up timed out.
    testEnvironment: src('services/platform', 'testing/integration-environment.js'),
    ...overrides,
  });
