import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { chunkModules } from './scripts/chunk-modules.mjs';

/** The *.test.ts files that need a DOM (a clipboard, document.cookie): run with the screens' tests in jsdom. */
const DOM_TESTS = [
  'src/lib/clipboard.test.ts',
  // sessionStorage
  'src/features/staff-dashboard/model/filtersSlice.test.ts',
  // the stock page tabs the setup registers
  'src/features/client-stocks/model/tabs.test.ts',
  // the dom project's environment itself
  'src/test/jsdomEnvironment.test.ts',
];

const gateway = `http://127.0.0.1:${process.env.GATEWAY_PORT ?? 3000}`;
const port = Number(process.env.WEB_PORT ?? 5173);
const proxy = {
  '/api': { target: gateway, changeOrigin: false },
  '/health': { target: gateway, changeOrigin: false },
};

export default defineConfig({
  // chunkModules: what each chunk holds, for scripts/test/web-bundle.test.mjs (no second build in the tests).
  plugins: [react(), chunkModules(fileURLToPath(new URL('.', import.meta.url)))],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The protocol package is TypeScript source built as CommonJS for the servers; the web app bundles
      // the source directly so it stays tree-shakeable and needs no separate build step.
      // Test fixtures (tests only); before '@irp/proto', which would otherwise take it as a prefix.
      '@irp/proto/testing': fileURLToPath(new URL('../proto/src/testing/index.ts', import.meta.url)),
      '@irp/proto': fileURLToPath(new URL('../proto/src/index.ts', import.meta.url)),
    },
  },
  server: { host: '127.0.0.1', port, strictPort: true, proxy },
  preview: { host: '127.0.0.1', port, strictPort: true, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each route loads, for the bundle budget (scripts/bundle-budget.mjs).
    manifest: true,
    rollupOptions: {
      // proto/ has no package "sideEffects" flag; its zod schemas are module-level calls the web app never
      // uses, so let rollup drop proto modules whose exports are unused (keeps zod out of the bundle).
      treeshake: {
        moduleSideEffects: (id) => !id.includes('/proto/src/'),
      },
      output: {
        // Long-lived vendor chunks: an app deploy does not invalidate the browser's copy of the libraries.
        manualChunks: (id) => {
          if (!id.includes('/node_modules/')) return undefined;
          if (
            /\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)\//.test(
              id,
            )
          ) {
            return 'vendor-react';
          }
          if (
            /\/node_modules\/(@mantine|@floating-ui|react-remove-scroll[^/]*|react-style-singleton|react-number-format|react-textarea-autosize|use-callback-ref|use-sidecar|get-nonce|detect-node-es|clsx|tslib|type-fest)\//.test(
              id,
            )
          ) {
            return 'vendor-mantine';
          }
          if (
            /\/node_modules\/(@reduxjs|@standard-schema|redux|react-redux|immer|reselect|redux-thunk|use-sync-external-store)\//.test(
              id,
            )
          ) {
            return 'vendor-redux';
          }
          // Only the report page draws charts: its own vendor chunk, loaded with that page's chunk.
          if (/\/node_modules\/(highcharts|highcharts-react-official)\//.test(id)) return 'vendor-highcharts';
          return undefined;
        },
      },
    },
  },
  test: {
    // Two projects: the screens' tests (*.test.tsx, and the few *.test.ts that need a DOM) in jsdom with the
    // setup that registers every stock page tab; the pure ones (models, formatters, the API layer) in
    // Node, without a DOM or that setup, which cost each such file about a second of CPU for nothing.
    projects: [
      {
        extends: true,
        test: {
          name: 'dom',
          // The libraries every screen's test imports, bundled once into one file each (esbuild) instead of
          // hundreds of modules loaded per test file: 148 -> 134 CPU-s for the web unit suite alone.
          deps: {
            optimizer: {
              web: {
                enabled: true,
                include: [
                  '@mantine/core',
                  '@mantine/hooks',
                  '@reduxjs/toolkit',
                  '@reduxjs/toolkit/query/react',
                  'react',
                  'react-dom',
                  'react-dom/client',
                  'react-redux',
                  'react-router-dom',
                  '@testing-library/react',
                  '@testing-library/jest-dom/vitest',
                ],
              },
            },
          },
          // jsdom, with the classes Node's fetch checks its arguments against (src/test/jsdomEnvironment.ts).
          environment: './src/test/jsdomEnvironment.ts',
          setupFiles: ['./src/test/setup.ts'],
          include: ['src/**/*.test.tsx', ...DOM_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.mjs'],
          exclude: DOM_TESTS,
        },
      },
    ],
    css: false,
    restoreMocks: true,
    // A whole page rendered in jsdom (Mantine, the router, RTK Query) takes 1–2 s alone and over 5 s (vitest's
    // default) on a busy 2-core machine; a time limit is no check of behaviour, so it only has to be generous.
    // The lists at scale (20,000 stocks, 50,000 subscribers) ran past 20 s at a load average of 12-15.
    testTimeout: 90_000,
    // Likewise the setup (jsdom and the setup file) of each test file: its 10 s default ran out with the
    // integration lane and other work beside it.
    hookTimeout: 30_000,
    // One worker per core (vitest's default leaves one core free, i.e. one worker on a 2-core machine): the
    // files wait on jsdom and imports as much as on the CPU, and make test's other lanes wait on brokers and
    // browsers. 188 s -> 121 s alone on 2 cores.
    maxWorkers: availableParallelism(),
    // Worker threads, not child processes (vitest's default 'forks'): each test file still gets its own
    // module graph and jsdom, without a Node process started and torn down for it. The whole web suite alone
    // on 2 cores: 238 -> 170 CPU-s, 138 -> 103 s (2026-11-30).
    pool: 'threads',
    minWorkers: 1,
  },
});
