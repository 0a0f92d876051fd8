// Shared jest settings: ts-jest, node environment. Each workspace passes its own roots/testMatch.
// Tests run against the sources of proto and the platform, never a dist/ that may be stale.
const path = require('node:path');

const src = (workspace, file = 'index.ts') => path.join(__dirname, workspace, 'src', file);

module.exports = (overrides = {}) => ({
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        // Transpile only (each file on its own, fast); the type checks of tests are `make lint`'s.
        tsconfig: {
          isolatedModules: true,
          esModuleInterop: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          target: 'ES2022',
          module: 'commonjs',
        },
      },
    ],
  },
  moduleNameMapper: {
    '^@irp/proto$': src('proto'),
    '^@irp/platform$': src('services/platform'),
    '^@irp/platform/testing$': src('services/platform', 'testing/index.ts'),
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['**/*.spec.ts'],
  ...overrides,
});
