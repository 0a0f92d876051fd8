#!/usr/bin/env node
// `make test`: starts what the tests need (a Kafka broker of its own and PostgreSQL, via
// deploy/local/infra.mjs), runs every suite, stops what it started, and ends with `N passed, M failed`.
// The tests get their own broker (INFRA_DIR .local/test, port 19092), so a running `make up` is untouched.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { browserStackEnv } from '../e2e/stack-env.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, '.local', 'test-results');
const ENV_FILE = path.join(ROOT, '.local', 'test.env');

process.env.INFRA_DIR ??= '.local/test';
process.env.KAFKA_PORT ??= '19092';
process.env.KAFKA_CONTROLLER_PORT ??= '19093';
// Databases and ports can be moved (e.g. two checkouts testing side by side on one machine).
const TEST_DATABASE = process.env.TEST_DATABASE ?? 'irportal_test';
const E2E_DATABASE = process.env.E2E_DATABASE ?? 'irportal_e2e';
const E2E_GATEWAY_PORT = process.env.E2E_GATEWAY_PORT ?? '3400';
// The browser suite's services listen on their manifest health port plus this offset (3101 -> 3401 ...).
const E2E_HEALTH_PORT_OFFSET = process.env.E2E_HEALTH_PORT_OFFSET ?? '300';
// The browser suite's vendor stand-ins move with the same offset (the ASX stand-in: 3251 -> 3551).
const require = createRequire(import.meta.url);
const asxStandIn = require('./manifest.cjs')
  .loadManifest()
  .services.flatMap((s) => s.standIns ?? [])
  .find((s) => s.name === 'asx-standin');
const E2E_STANDIN_URL = asxStandIn
  ? `http://127.0.0.1:${asxStandIn.port + Number(E2E_HEALTH_PORT_OFFSET)}`
  : undefined;
const mailInbox = require('./manifest.cjs')
  .loadManifest()
  .services.flatMap((s) => s.standIns ?? [])
  .find((s) => s.name === 'mail-inbox');
const E2E_MAIL_INBOX_URL = mailInbox
  ? `http://127.0.0.1:${mailInbox.port + Number(E2E_HEALTH_PORT_OFFSET)}`
  : undefined;

export const SUITES = ['lint', 'unit', 'web', 'infra', 'integration', 'browser'];
const only = process.argv.slice(2);
const unknown = only.filter((s) => !SUITES.includes(s));
if (unknown.length) {
  console.error(`[test] no suite named ${unknown.join(', ')}; the suites are ${SUITES.join(', ')}`);
  console.log('0 passed, 1 failed');
  process.exit(2);
}
const wanted = (name) => only.length === 0 || only.includes(name);
const results = [];

function run(cmd, args, env = {}, cwd = ROOT) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    p.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);

function record(name, passed, failed, skipped = 0, note = '') {
  results.push({ name, passed, failed, skipped });
  console.log(
    `\n[test] ${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${note ? ` (${note})` : ''}\n`,
  );
}

async function jestSuite(name, args, env) {
  const out = path.join(RESULTS, `${name}.json`);
  fs.rmSync(out, { force: true });
  const code = await run(
    process.execPath,
    ['node_modules/jest/bin/jest.js', ...args, '--json', `--outputFile=${out}`],
    env,
  );
  const r = readJson(out);
  if (!r) return record(name, 0, 1, 0, `jest exited ${code} without results`);
  const broken = r.numRuntimeErrorTestSuites ?? 0;
  record(
    name,
    r.numPassedTests,
    r.numFailedTests + broken + (code !== 0 && r.numFailedTests + broken === 0 ? 1 : 0),
    r.numPendingTests,
    broken ? `${broken} suite(s) failed to run` : '',
  );
}

async function vitestSuite() {
  const out = path.join(RESULTS, 'web-unit.json');
  fs.rmSync(out, { force: true });
  const code = await run(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    {},
    path.join(ROOT, 'web'),
  );
  const r = readJson(out);
  if (!r) return record('web unit', 0, 1, 0, `vitest exited ${code} without results`);
  record(
    'web unit',
    r.numPassedTests,
    r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0),
    r.numPendingTests + (r.numTodoTests ?? 0),
  );
}

async function nodeTestSuite(name, dirs) {
  const out = path.join(RESULTS, `${name}.tap`);
  const code = await new Promise((resolve) => {
    const p = spawn(
      process.execPath,
      ['--test', '--test-reporter=tap', '--test-reporter-destination=stdout', ...dirs],
      { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const file = fs.createWriteStream(out);
    p.stdout.on('data', (d) => {
      process.stdout.write(d);
      file.write(d);
    });
    p.on('exit', (c) => file.end(() => resolve(c ?? 1)));
  });
  const tap = fs.readFileSync(out, 'utf8');
  const num = (k) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(tap)?.[1] ?? 0);
  record(name, num('pass'), num('fail') + (code !== 0 && num('fail') === 0 ? 1 : 0), num('skipped'));
}

/**
 * A database made afresh for one suite: the integration suite's (no schema or migration history left from an
 * earlier run, e.g. of a service since renamed or scaffolded again) and the browser suite's (exactly the demo
 * data and what the tests create). With `file`, writes an env file like `infraEnvFile` that points at it.
 */
async function freshDatabaseEnv(infraEnvFile, name, file) {
  const { Client } = createRequire(import.meta.url)('pg');
  const { readEnvFile } = await import('../deploy/local/infra.mjs');
  const env = readEnvFile(infraEnvFile);
  if (!env.DATABASE_URL) throw new Error(`${infraEnvFile} has no DATABASE_URL`);
  const url = new URL(env.DATABASE_URL);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  if (!file) return undefined;
  fs.writeFileSync(
    file,
    Object.entries({ ...env, DATABASE_URL: url.toString() })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  return file;
}

async function browserSuite(testInfraEnvFile) {
  const out = path.join(ROOT, 'e2e', 'results.json');
  fs.rmSync(out, { force: true });
  const infraEnvFile = await freshDatabaseEnv(
    testInfraEnvFile,
    E2E_DATABASE,
    path.join(ROOT, '.local', 'test-browser.env'),
  );
  // Browser tests sign in (and post widget comments) many times a minute from one address: higher limits
  // than production.
  const stackEnv = {
    GATEWAY_PORT: E2E_GATEWAY_PORT,
    HEALTH_PORT_OFFSET: E2E_HEALTH_PORT_OFFSET,
    LOGIN_THROTTLE_LIMIT: '200',
    // Every comment the browser tests post comes from one address.
    COMMENT_RATE_PER_ADDRESS: '100',
    ...browserStackEnv({ gatewayPort: E2E_GATEWAY_PORT }),
  };
  const upCode = await run(
    process.execPath,
    ['scripts/stack.mjs', 'up', '--detach', '--web', 'dist', '--infra-env', infraEnvFile],
    stackEnv,
  );
  if (upCode !== 0) {
    await run(process.execPath, ['scripts/stack.mjs', 'down'], stackEnv);
    return record('browser', 0, 1, 0, 'the stack did not start');
  }
  try {
    const code = await run(
      process.execPath,
      [
        'node_modules/@playwright/test/cli.js',
        'test',
        '-c',
        'e2e/playwright.config.ts',
        // E2E_SPECS="email-marketing system-settings": only the spec files matching these (while working on them).
        ...(process.env.E2E_SPECS ?? '').split(/\s+/).filter(Boolean),
      ],
      {
        E2E_BASE_URL: `http://127.0.0.1:${E2E_GATEWAY_PORT}`,
        ...(E2E_STANDIN_URL ? { E2E_STANDIN_URL } : {}),
        ...(E2E_MAIL_INBOX_URL ? { E2E_MAIL_INBOX_URL } : {}),
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      },
    );
    const r = readJson(out);
    if (!r) return record('browser', 0, 1, 0, `playwright exited ${code} without results`);
    const s = r.stats;
    record(
      'browser',
      s.expected + (s.flaky ?? 0),
      s.unexpected + (code !== 0 && s.unexpected === 0 ? 1 : 0),
      s.skipped,
      s.flaky ? `${s.flaky} flaky` : '',
    );
  } finally {
    await run(process.execPath, ['scripts/stack.mjs', 'down'], stackEnv);
  }
}

async function main() {
  const started = Date.now();
  fs.mkdirSync(RESULTS, { recursive: true });
  const infra = await import('../deploy/local/infra.mjs');
  let infraUp = false;
  try {
    if (wanted('lint')) {
      // Each check of scripts/lint.mjs counts as one test: eslint, boundaries, test types ...
      const out = path.join(RESULTS, 'lint.json');
      fs.rmSync(out, { force: true });
      const code = await run(process.execPath, ['scripts/lint.mjs', '--json', out]);
      const checks = readJson(out);
      if (!checks) record('lint', 0, 1, 0, `scripts/lint.mjs exited ${code} without results`);
      else
        record(
          'lint',
          checks.filter((c) => c.ok).length,
          checks.filter((c) => !c.ok).length,
          0,
          checks
            .filter((c) => !c.ok)
            .map((c) => c.name)
            .join(', '),
        );
    }
    if (wanted('unit')) await jestSuite('unit', []);
    if (wanted('web')) await vitestSuite();
    if (wanted('infra')) await nodeTestSuite('infra script', ['deploy/local/test/', 'scripts/test/']);
    if (wanted('integration') || wanted('browser')) {
      const { env } = await infra.up({ envFile: ENV_FILE, database: TEST_DATABASE });
      infraUp = true;
      const testEnv = {
        KAFKA_BROKERS: env.KAFKA_BROKERS,
        DATABASE_URL: env.DATABASE_URL,
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
      };
      if (wanted('integration')) {
        await freshDatabaseEnv(ENV_FILE, TEST_DATABASE); // the same name: dropped and made again
        // INT_SPECS="senders-scale subscribers": only the test files matching these (while working on them).
        const specs = (process.env.INT_SPECS ?? '').split(/\s+/).filter(Boolean);
        await jestSuite('integration', ['-c', 'jest.int.config.js', '--runInBand', ...specs], testEnv);
      }
      if (wanted('browser')) await browserSuite(ENV_FILE);
    }
  } finally {
    if (infraUp)
      await infra
        .down({ envFile: ENV_FILE })
        .catch((err) => console.error(`[test] infra down failed: ${err.message}`));
  }
  const total = results.reduce(
    (t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  console.log('\n[test] summary');
  for (const r of results)
    console.log(
      `[test]   ${r.name.padEnd(14)} ${String(r.passed).padStart(4)} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`,
    );
  console.log(`[test] took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(
    `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
  );
  process.exit(total.failed > 0 || results.length === 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err.stack ?? err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
