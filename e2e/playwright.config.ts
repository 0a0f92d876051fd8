import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Specs that change what every other spec relies on (system settings: polling switched off, the ASX
 * stand-in's feeds read by a reconcile of every polled stock; a new repeating invoice, which changes the
 * staff dashboard's repeating total): run on their own, after the others.
 */
const SHARED_STATE = /(system-settings|repeating-invoice)\.spec\.ts$/;

/**
 * Browser tests against the whole running system (node scripts/stack.mjs up --detach --web dist).
 * Debian's Chromium, never a downloaded browser. Tests run in parallel (E2E_WORKERS, default 2): each makes
 * its own stock or subscriber where it changes one, or reads demo data no other test changes; a file whose
 * tests share a demo record in order says so with `test.describe.configure({ mode: 'default' })`.
 */
export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: true,
  // Limits for a loaded machine, not checks of behaviour (speed is `make bench`'s): a test waits on what it
  // expects to see, and only a test that can never see it ends at these. One test may take 5 minutes, one
  // expectation (a page, a mail, a report) 2; actions and navigations wait within the test's own limit. No
  // test sets a shorter one (an inner retry of a `toPass` block aside).
  timeout: 300_000,
  expect: { timeout: 120_000 },
  reporter: [['list'], ['json', { outputFile: path.join(__dirname, 'results.json') }]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000',
    headless: true,
    // A trace is recorded for every test and thrown away when it passes (DOM snapshots at every action, taken
    // in Chromium's browser process: ~105 of Chromium's ~364 CPU-s in a full run). A run to debug sets
    // E2E_TRACE=1 (the failed tests' traces, without the screencast); a failure's screenshot is always kept.
    trace:
      process.env.E2E_TRACE === '1'
        ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false }
        : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's headless shell (the `chromium-headless-shell` package, `make chromium`): Chromium's old
      // headless mode, without the browser's UI machinery that the new headless mode of /usr/bin/chromium
      // runs. 40 loads of /login in new contexts took 6.3 CPU-s there against 19.6 in /usr/bin/chromium.
      // E2E_CHROMIUM runs the tests in another build (the full browser: /usr/bin/chromium).
      executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: [/phone\.spec\.ts$/, SHARED_STATE],
      use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } },
    },
    {
      // The header's burger menu; the screens themselves are covered at desktop width.
      name: 'phone',
      testMatch: /(nav|menu-by-role|phone|screenshots)\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
      },
    },
    {
      // After the parallel projects, one file at a time in file order.
      name: 'desktop-shared-state',
      testMatch: SHARED_STATE,
      dependencies: ['desktop', 'phone'],
      fullyParallel: false,
      use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } },
    },
  ],
});
