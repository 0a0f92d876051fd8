#!/usr/bin/env node
// `make test`: starts what the tests need (a Kafka broker of its own and PostgreSQL, via
// deploy/local/infra.mjs), runs every suite, stops what it started, and ends with `N passed, M failed`.
// The tests get their own brokers, so a running `make up` is untouched. By default (TEST_LANES=3) three lanes
// run side by side, each lane that needs one with its own broker, database and announcements DATA_DIR (most
// of a suite's time is waiting on brokers, databases and browsers, not the CPU):
//   lint, unit, web, infra script                (output as it comes)
//   integration: services/                       (prefixed "[integration]"; .local/test, port 19092)
//   integration gateway: gateway/test            (prefixed "[gateway]"; port 19112)
// and the browser suite (prefixed "[browser]"; .local/test-browser, port 19102) in whichever of the first
// and third lanes is free first: never a fourth lane at once, never a lane idle while it waits.
// TEST_LANES=4 gives the browser suite a lane of its own (on 2 cores four lanes starved the scale tests);
// TEST_LANES=2 keeps one integration lane, the browser after the quick suites; TEST_LANES=1 runs everything
// one after the other, as does Docker's infrastructure (one broker for all). A subset of integration specs
// (INT_SPECS, --changed) runs in one lane.
// No test has a time budget (speed is the benchmarks' business, bench/), so a busy machine makes a run
// slower, never red.
// A test skipped without a declared condition (scripts/testing/skip-conditions.js), a todo, or one left out by
// a focused sibling fails the run; the summary prints each suite's time and the ten slowest tests. The pure
// parts (arguments, reading each runner's results, the summary) are scripts/test-report.mjs.
//   node scripts/test.mjs [suite ...]   a subset of suites, said so in the last line
//   node scripts/test.mjs --changed     the suites and specs the working tree's changes touch (make test-changed)
//   TEST_FULL_RUN=1 (.ci/run)           refuses any subset
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  brokenSuite,
  finalLine,
  fromJestJson,
  fromLintChecks,
  fromNodeTestLines,
  fromFileCpuLines,
  fromPlaywrightJson,
  parseRun,
  suiteLine,
  summaryText,
  totals,
  withExitCode,
} from './test-report.mjs';
import { changedFiles, planChanged, planText } from './test-changed.mjs';
import { browserStackEnv } from '../e2e/stack-env.mjs';
import { runAccounting } from './testing/cpu-account.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Started by another Node than the project's (`node scripts/test.mjs` from a shell on the machine's node):
// run again on the project's, which scripts/node-runtime.sh fetches once, as `make test` does.
const NODE_VERSION = fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim();
if (process.versions.node.split('.')[0] !== NODE_VERSION.split('.')[0]) {
  const bin = execFileSync(path.join(ROOT, 'scripts/node-runtime.sh'), { encoding: 'utf8' }).trim();
  const again = spawnSync(path.join(bin, 'node'), process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
  });
  process.exit(again.status ?? 1);
}
const RESULTS = path.join(ROOT, '.local', 'test-results');
const ENV_FILE = path.join(ROOT, '.local', 'test.env');

process.env.INFRA_DIR ??= '.local/test';
process.env.KAFKA_PORT ??= '19092';
process.env.KAFKA_CONTROLLER_PORT ??= '19093';
// The suites' stacks and processes share the machine's PostgreSQL (100 connections): a pool closes a
// connection idle for a second, not pg's 10 s, so the lanes' bursts do not hold its slots together
// (a fresh run of 2026-11-30 ran it out: "remaining connection slots are reserved").
process.env.DATABASE_POOL_IDLE_MS ??= '1000';
// Databases and ports can be moved (e.g. two checkouts testing side by side on one machine).
const TEST_DATABASE = process.env.TEST_DATABASE ?? 'irportal_test';
const E2E_DATABASE = process.env.E2E_DATABASE ?? 'irportal_e2e';
// The browser suite's own broker, beside the integration suite's (the same topics and consumer groups: one
// broker each keeps the two suites' services from taking each other's messages).
const E2E_INFRA_DIR = process.env.E2E_INFRA_DIR ?? `${process.env.INFRA_DIR}-browser`;
const E2E_KAFKA_PORT = Number(process.env.E2E_KAFKA_PORT ?? Number(process.env.KAFKA_PORT) + 10);
const E2E_KAFKA_CONTROLLER_PORT = Number(
  process.env.E2E_KAFKA_CONTROLLER_PORT ?? Number(process.env.KAFKA_CONTROLLER_PORT) + 10,
);
const E2E_INFRA_ENV_FILE = path.join(ROOT, '.local', 'test-browser-infra.env');
// The full run's gateway integration specs: a lane of their own beside the services' (its own broker and
// database, so the two lanes' service processes never share a consumer group or a schema).
const GATEWAY_INT_DIR = `${process.env.INFRA_DIR}-gateway`;
const GATEWAY_INT_KAFKA_PORT = Number(process.env.KAFKA_PORT) + 20;
const GATEWAY_INT_CONTROLLER_PORT = Number(process.env.KAFKA_CONTROLLER_PORT) + 20;
const GATEWAY_INT_ENV_FILE = path.join(ROOT, '.local', 'test-gateway.env');
const GATEWAY_INT_DATABASE = `${TEST_DATABASE}_gateway`;
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

const RUN = parseRun(process.argv.slice(2), process.env);
if (RUN.problems.length) {
  for (const p of RUN.problems) console.error(`[test] ${p}`);
  console.log('0 passed, 1 failed');
  process.exit(2);
}
/** `--changed`: what the working tree's changes touch (scripts/test-changed.mjs), else the suites asked for. */
const CHANGED = RUN.changed ? changedFiles(ROOT) : undefined;
const PLAN = CHANGED ? planChanged(CHANGED.files) : undefined;
if (PLAN) console.log(planText(PLAN, CHANGED.base));
const wanted = (name) => (PLAN ? PLAN.suites : RUN.suites).includes(name);
const results = [];
/** The run's CPU, and each suite's (scripts/testing/cpu-account.mjs): printed in the summary. */
const cpu = runAccounting();
/** The suite whose CPU a process started now counts towards (its cgroup: everything it starts, too). */
const accountAs = new AsyncLocalStorage();

/**
 * The lane a suite runs in: `prefix` set, its children's output is written line by line with it (a lane
 * beside the one whose output comes as it is).
 */
const lane = new AsyncLocalStorage();

/** Copies a child's stream to ours, each whole line with the lane's prefix. */
function prefixed(stream, out, prefix) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) out.write(`${prefix} ${line}\n`);
  });
  stream.on('end', () => rest && out.write(`${prefix} ${rest}\n`));
}

function run(cmd, args, env = {}, cwd = ROOT, prefix = lane.getStore()) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const suite = accountAs.getStore();
    if (suite && p.pid) cpu.suite(suite).join(p.pid);
    if (prefix) {
      prefixed(p.stdout, process.stdout, prefix);
      prefixed(p.stderr, process.stderr, prefix);
    }
    p.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);

function record(result, startedAt) {
  result.wallMs = Date.now() - startedAt;
  results.push(result);
  console.log(`\n${suiteLine(result)}\n`);
}

/**
 * Runs suite `name`: `run()` gives its result (a broken suite's when it throws), recorded with its wall time,
 * and every process it starts counts towards the suite's CPU (accountAs).
 */
async function suite(name, runSuite) {
  const started = Date.now();
  const result = await accountAs
    .run(name, runSuite)
    .catch((err) => brokenSuite(name, err instanceof Error ? err.message : String(err)));
  record(result, started);
}

async function jestRun(name, args, env) {
  const out = path.join(RESULTS, `${name}.json`);
  // Each integration file's CPU (services/platform/src/testing/integration-environment.js).
  const filesCpu = path.join(RESULTS, `${name}.files-cpu.jsonl`);
  fs.rmSync(out, { force: true });
  fs.rmSync(filesCpu, { force: true });
  const code = await run(
    process.execPath,
    ['node_modules/jest/bin/jest.js', ...args, '--json', `--outputFile=${out}`],
    { ...env, IRP_FILE_CPU_LOG: filesCpu },
  );
  const r = readJson(out);
  if (!r) return brokenSuite(name, `jest exited ${code} without results`);
  const result = withExitCode(fromJestJson(name, r, ROOT), code, 'jest');
  result.filesCpu = fromFileCpuLines(fs.existsSync(filesCpu) ? fs.readFileSync(filesCpu, 'utf8') : '');
  return result;
}

/** `related`: only the web tests that import these files (`vitest related`, paths relative to web/). */
async function vitestRun(related) {
  const out = path.join(RESULTS, 'web-unit.json');
  fs.rmSync(out, { force: true });
  const code = await run(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
      ...(related ? ['related', '--run', '--passWithNoTests', ...related] : ['run']),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    {},
    path.join(ROOT, 'web'),
  );
  const r = readJson(out);
  if (!r) return brokenSuite('web unit', `vitest exited ${code} without results`);
  return withExitCode(fromJestJson('web unit', r, ROOT), code, 'vitest');
}

/** `files`: globs, which node --test expands itself (a folder it would run as one file, and fail). */
async function nodeTestRun(name, files) {
  const out = path.join(RESULTS, `${name.replace(/\s+/g, '-')}.jsonl`);
  fs.rmSync(out, { force: true });
  const code = await run(process.execPath, [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/testing/node-test-reporter.mjs',
    `--test-reporter-destination=${out}`,
    ...files,
  ]);
  if (!fs.existsSync(out)) return brokenSuite(name, `node --test exited ${code} without results`);
  return withExitCode(fromNodeTestLines(name, fs.readFileSync(out, 'utf8'), ROOT), code, 'node --test');
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

async function browserRun(testInfraEnvFile, specs) {
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
    LOGIN_THROTTLE_ADDRESS_LIMIT: '1000',
    // Every comment the browser tests post comes from one address.
    COMMENT_RATE_PER_ADDRESS: '100',
    // ... and every order the order form's tests place, and every search of the public report page.
    ORDER_RATE_PER_ADDRESS: '100',
    // A browser fills the order form faster than a person: its token is still required and sent.
    ORDER_FORM_MIN_FILL_MS: '0',
    REPORT_SEARCH_RATE_PER_ADDRESS: '100',
    DATA_DIR: laneDataDir('browser'),
    ...browserStackEnv(),
  };
  const upCode = await run(
    process.execPath,
    ['scripts/stack.mjs', 'up', '--detach', '--web', 'dist', '--infra-env', infraEnvFile],
    stackEnv,
  );
  if (upCode !== 0) {
    await run(process.execPath, ['scripts/stack.mjs', 'down'], stackEnv);
    return brokenSuite('browser', 'the stack did not start');
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
        ...specs,
      ],
      {
        E2E_BASE_URL: `http://127.0.0.1:${E2E_GATEWAY_PORT}`,
        ...(E2E_STANDIN_URL ? { E2E_STANDIN_URL } : {}),
        ...(E2E_MAIL_INBOX_URL ? { E2E_MAIL_INBOX_URL } : {}),
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      },
    );
    const r = readJson(out);
    if (!r) return brokenSuite('browser', `playwright exited ${code} without results`);
    return withExitCode(fromPlaywrightJson('browser', r, ROOT), code, 'playwright');
  } finally {
    await run(process.execPath, ['scripts/stack.mjs', 'down'], stackEnv);
  }
}

/** Starts a broker (and the database) for one lane, runs `fn(env)`, and stops what it started. */
async function withInfra(infra, options, fn) {
  const { env } = await infra.up(options);
  // Each lane's broker counts as the brokers' (it serves every suite of its lane).
  const { readEnvFile } = await import('../deploy/local/infra.mjs');
  const brokerPid = Number(readEnvFile(options.envFile).KAFKA_PID);
  if (brokerPid) cpu.suite('kafka brokers').join(brokerPid);
  try {
    return await fn(env);
  } finally {
    await infra
      .down({ envFile: options.envFile })
      .catch((err) => console.error(`[test] infra down (${options.envFile}) failed: ${err.message}`));
  }
}

async function lintRun() {
  // Each check of scripts/lint.mjs counts as one test: eslint, boundaries, test types ...
  const out = path.join(RESULTS, 'lint.json');
  fs.rmSync(out, { force: true });
  const code = await run(process.execPath, ['scripts/lint.mjs', '--json', out]);
  const checks = readJson(out);
  return checks
    ? fromLintChecks('lint', checks)
    : brokenSuite('lint', `scripts/lint.mjs exited ${code} without results`);
}

/**
 * The integration tests on a broker and database of their own (`infraOptions`): `specs` (path patterns)
 * narrow them; the suite is recorded as `name`.
 */
async function integrationSuite(infra, name, infraOptions, specs) {
  await withInfra(infra, infraOptions, async (env) => {
    await freshDatabaseEnv(infraOptions.envFile, infraOptions.database); // the same name: dropped and made again
    // Each service's role and schema (docs/adr/0011): the services under test connect as their roles.
    await infra.bootstrapLocalDatabase(env.DATABASE_URL);
    // --forceExit: a Kafka client a file leaked (kafkajs retrying a broker gone with its lane) must not keep the
    // runner alive after the results are written; the integration environment has stopped every process.
    await suite(name, () =>
      jestRun(name, ['-c', 'jest.int.config.js', '--runInBand', '--forceExit', ...specs], {
        KAFKA_BROKERS: env.KAFKA_BROKERS,
        DATABASE_URL: env.DATABASE_URL,
        INFRA_ENV_FILE: infraOptions.envFile,
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
        // The announcements' PDFs of this lane's processes (a test may give its own): not `make up`'s, and
        // not another lane's, whose tests add and delete files while this one's file cleanup walks them.
        DATA_DIR: laneDataDir(name),
      }),
    );
  });
}

/** A lane's own announcements DATA_DIR, emptied when the lane starts. */
function laneDataDir(name) {
  const dir = path.join(ROOT, '.local', 'test-data', name.replace(/\W+/g, '-'));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A jest path pattern for a folder of this checkout (whatever folders the checkout itself sits in). */
const underRoot = (folder) => `^${`${ROOT}/${folder}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;

const SERVICES_INFRA = { envFile: ENV_FILE, database: TEST_DATABASE };
const GATEWAY_INFRA = {
  envFile: GATEWAY_INT_ENV_FILE,
  database: GATEWAY_INT_DATABASE,
  dir: path.resolve(ROOT, GATEWAY_INT_DIR),
  kafkaPort: GATEWAY_INT_KAFKA_PORT,
  controllerPort: GATEWAY_INT_CONTROLLER_PORT,
};

async function browserLane(infra) {
  await withInfra(
    infra,
    {
      envFile: E2E_INFRA_ENV_FILE,
      database: E2E_DATABASE,
      dir: path.resolve(ROOT, E2E_INFRA_DIR),
      kafkaPort: E2E_KAFKA_PORT,
      controllerPort: E2E_KAFKA_CONTROLLER_PORT,
    },
    () => suite('browser', () => browserRun(E2E_INFRA_ENV_FILE, PLAN ? PLAN.browser.specs : RUN.e2eSpecs)),
  );
}

/**
 * The full run's second integration lane (TEST_LANES >= 3): the gateway's specs. Every other integration
 * spec (services/, and a new service's) runs in the first. The browser suite follows whichever of the quick
 * suites and the gateway's specs ends first: which that is has changed from run to run (fresh clones on
 * 2 cores measured the quick suites at ~270-310 s beside the gateway's ~560-760 s; earlier, heavier runs had
 * them the other way round), and a lane that waits idle for the other lengthens the run by the browser
 * suite's ~270-420 s.
 */
const SECOND_LANE = ['gateway/test/'];

async function main() {
  const started = Date.now();
  fs.mkdirSync(RESULTS, { recursive: true });
  const infra = await import('../deploy/local/infra.mjs');
  const { dockerAnswers } = await import('../deploy/local/docker.mjs');
  // INT_SPECS (or --changed) names the specs: they run in one lane, as asked.
  const intSpecs = PLAN ? PLAN.integration.specs : RUN.intSpecs;
  // Side by side only with brokers of our own (Docker's compose file has one broker for all).
  // On one core (`taskset -c 0 make test`), one lane: side by side would only take turns on it, with every
  // lane's broker and services alive the whole time.
  const lanes = dockerAnswers() ? 1 : Number(process.env.TEST_LANES ?? (availableParallelism() > 1 ? 3 : 1));
  // Two integration lanes (TEST_LANES >= 3, the full run): each its own broker and database.
  const splitIntegration = lanes >= 3 && wanted('integration') && intSpecs.length === 0;
  // The browser suite in a lane of its own (TEST_LANES >= 4), else after the quick suites.
  const browserApart = lanes >= 4 && wanted('browser');
  // With the integration split in two (TEST_LANES 3), the browser suite runs once, in the first of the quick
  // lane and the gateway's lane to be free, under its own prefix.
  let browserTaken = !wanted('browser') || browserApart;
  const browserOnce = async () => {
    if (browserTaken) return;
    browserTaken = true;
    await lane
      .run('[browser]', () => browserLane(infra))
      .catch((err) => record(brokenSuite('browser', err.message), started));
  };
  const quick = async () => {
    if (wanted('lint')) await suite('lint', lintRun);
    if (wanted('unit')) {
      // --changed: the unit tests related to the changed sources (jest --findRelatedTests), else all of them.
      const related =
        PLAN && !PLAN.unit.all
          ? PLAN.unit.related.filter((f) => fs.existsSync(path.join(ROOT, f)))
          : undefined;
      await suite('unit', () =>
        jestRun('unit', related ? ['--passWithNoTests', '--findRelatedTests', ...related] : []),
      );
    }
    if (wanted('web'))
      await suite('web unit', () => vitestRun(PLAN && !PLAN.web.all ? PLAN.web.related : undefined));
    if (wanted('infra'))
      await suite('infra script', () =>
        nodeTestRun('infra script', [
          'deploy/local/test/*.test.mjs',
          'scripts/test/*.test.mjs',
          'bench/test/*.test.mjs',
        ]),
      );
    if (splitIntegration) await browserOnce();
    else if (wanted('browser') && !browserApart) await browserLane(infra);
  };
  const integration = async () => {
    if (!wanted('integration')) return;
    if (!splitIntegration) return integrationSuite(infra, 'integration', SERVICES_INFRA, intSpecs);
    await integrationSuite(infra, 'integration', SERVICES_INFRA, [
      underRoot('services/'),
      '--testPathIgnorePatterns',
      ...SECOND_LANE.map(underRoot),
    ]);
  };
  const secondIntegration = async () => {
    await integrationSuite(infra, 'integration gateway', GATEWAY_INFRA, SECOND_LANE.map(underRoot));
    await browserOnce();
  };
  const failedLane = (name) => (err) => record(brokenSuite(name, err.message), started);
  if (lanes >= 2) {
    const browserAfter = !browserApart && !splitIntegration ? ', browser' : '';
    const plan = [
      ['', `lint, unit, web, infra script${browserAfter}`, quick],
      ...(browserApart ? [['[browser]', 'browser', () => browserLane(infra)]] : []),
      ...(wanted('integration') ? [['[integration]', 'integration', integration]] : []),
      ...(splitIntegration
        ? [['[gateway]', `integration gateway: ${SECOND_LANE.join(', ')}`, secondIntegration]]
        : []),
    ];
    const browserLater = splitIntegration && !browserTaken;
    console.log(
      `[test] ${plan.length} lanes: ${plan.map(([prefix, what]) => (prefix ? `${what} (prefixed ${prefix})` : what)).join(' | ')}${browserLater ? '; then browser (prefixed [browser]) in the first of the quick and the gateway lanes to end' : ''}`,
    );
    await Promise.all(
      plan.map(([prefix, what, fn]) =>
        (prefix ? lane.run(prefix, fn) : fn()).catch(failedLane(what.split(':')[0])),
      ),
    );
  } else {
    await quick();
    await integration();
  }
  const cpuFigures = cpu.report();
  cpu.close();
  console.log(
    `\n${summaryText(results, { subset: RUN.subset, tookMs: Date.now() - started, cpu: cpuFigures, cores: availableParallelism() })}`,
  );
  process.exit(totals(results).failed > 0 || results.length === 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err.stack ?? err);
  console.log(finalLine([brokenSuite('run', err.message)], RUN.subset));
  process.exit(1);
});
