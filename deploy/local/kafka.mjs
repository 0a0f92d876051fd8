// Kafka: the probes every mode uses (a metadata request answers) and the local single-node KRaft broker,
// started detached with the machine's JDK from the jars of kafka-files.mjs, and stopped by its pid.

import fs from 'node:fs';
import path from 'node:path';
import kafkajs from 'kafkajs';
import {
  ensureKafkaJars,
  formatStorage,
  javaBin,
  jvmArgs,
  KAFKA_VERSION,
  kafkaPaths,
  propsPort,
  serverProperties,
} from './kafka-files.mjs';
import {
  cmdline,
  infraDir,
  isAlive,
  portOpen,
  readPidFile,
  secs,
  sleep,
  spawnDetached,
  splitList,
  tail,
  terminate,
} from './shared.mjs';

const { Kafka, logLevel } = kafkajs;
// A hang guard, not a clock: the wait also ends at once when the broker process we started exits.
const KAFKA_READY_TIMEOUT_MS = 10 * 60_000;

/**
 * The broker's security from the variables the services read (services/platform/src/config.ts):
 * KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD (SCRAM-SHA-512, both or neither), KAFKA_SSL=true (TLS;
 * KAFKA_SSL_CA_FILE: a PEM CA to trust). None set: plain, as the local broker is. The topics Job uses them.
 */
export function kafkaSecurityFromEnv(env = process.env) {
  const { KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = env;
  if (!username !== !password)
    throw new Error('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: set both (SCRAM-SHA-512) or neither');
  const security = {};
  if (username) security.sasl = { mechanism: 'scram-sha-512', username, password };
  if (env.KAFKA_SSL === 'true')
    security.ssl = env.KAFKA_SSL_CA_FILE ? { ca: [fs.readFileSync(env.KAFKA_SSL_CA_FILE, 'utf8')] } : true;
  else if (env.KAFKA_SSL_CA_FILE) throw new Error('KAFKA_SSL_CA_FILE: set, but KAFKA_SSL is not true');
  return security;
}

/** `security`: { sasl?, ssl? } (kafkaSecurityFromEnv); none for the local broker. */
export function kafkaClient(brokers, { quick = false, security = {} } = {}) {
  return new Kafka({
    clientId: 'irp-infra',
    brokers: Array.isArray(brokers) ? brokers : splitList(brokers),
    logLevel: logLevel.NOTHING,
    connectionTimeout: quick ? 1000 : 3000,
    requestTimeout: quick ? 3000 : 30_000,
    retry: quick ? { retries: 0 } : { initialRetryTime: 200, retries: 8 },
    ...security,
  });
}

/** One attempt: the broker answers a metadata request. Resolves to the topic names, or throws. */
export async function listTopicsOnce(brokers, security = {}) {
  const admin = kafkaClient(brokers, { quick: true, security }).admin();
  try {
    await admin.connect();
    return await admin.listTopics();
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** Waits until `listTopics()` answers; `alive()` false aborts early (the process we started died). */
export async function waitForKafka(brokers, timeoutMs, alive = () => true, security = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    if (!alive())
      throw new Error(`the broker process exited${lastError ? ` (last probe: ${lastError.message})` : ''}`);
    try {
      return await listTopicsOnce(brokers, security);
    } catch (e) {
      lastError = e;
    }
    await sleep(250);
  }
  throw new Error(
    `Kafka at ${brokers} did not answer within ${secs(timeoutMs)}: ${lastError?.message ?? 'no answer'}`,
  );
}

/** The pid in our pid file when that process is alive and is our broker (not a reused pid). */
function ourKafkaPid(p) {
  const pid = readPidFile(p.pid);
  if (pid && isAlive(pid) && cmdline(pid).includes('kafka.Kafka') && cmdline(pid).includes(p.props))
    return pid;
  return null;
}

const logTails = (p) =>
  `--- ${p.out} (tail) ---\n${tail(p.out)}\n--- ${path.join(p.logs, 'server.log')} (tail) ---\n${tail(path.join(p.logs, 'server.log'), 30)}`;

/**
 * Local broker: reuse one that answers on the port, else fetch jars, format storage and start it detached.
 * Returns { brokers, started, owned, pid, fetchMs, formatMs, readyMs }.
 */
export async function localKafka({ dir, kafkaPort, controllerPort, log }) {
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
    if (!ownsPort)
      throw new Error(
        `a broker from ${p.dir} (pid ${mine}) runs on another port (${propsPort(p)}); run down first or use another INFRA_DIR`,
      );
    const t0 = Date.now();
    await waitForKafka(brokers, KAFKA_READY_TIMEOUT_MS, () => isAlive(mine)).catch((e) => {
      throw new Error(`${e.message}\n${logTails(p)}`);
    });
    return { brokers, started: false, owned: true, pid: mine, readyMs: Date.now() - t0 };
  }
  if (await portOpen(controllerPort)) {
    throw new Error(
      `controller port 127.0.0.1:${controllerPort} is in use; set KAFKA_CONTROLLER_PORT to a free port`,
    );
  }

  const java = javaBin();
  const fetchMs = await ensureKafkaJars(p, log);
  fs.mkdirSync(p.data, { recursive: true });
  fs.writeFileSync(p.props, serverProperties(p, kafkaPort, controllerPort));
  const tFormat = Date.now();
  const formatMs = (await formatStorage(p, java)) ? Date.now() - tFormat : null;

  const t0 = Date.now();
  // kafka.out holds this run only (server.log keeps the history, rolled).
  const child = await spawnDetached(java, [...jvmArgs(p), 'kafka.Kafka', p.props], {
    logFile: p.out,
    pidFile: p.pid,
    header: `\n=== ${new Date().toISOString()} starting kafka.Kafka ${p.props}\n`,
  });
  try {
    await waitForKafka(brokers, KAFKA_READY_TIMEOUT_MS, () => isAlive(child.pid));
  } catch (e) {
    await terminate(child.pid, 'SIGTERM', 10_000);
    fs.rmSync(p.pid, { force: true });
    throw new Error(`local Kafka broker failed to start: ${e.message}\n${logTails(p)}`);
  }
  return { brokers, started: true, owned: true, pid: child.pid, fetchMs, formatMs, readyMs: Date.now() - t0 };
}

/** Stops the broker the env file (or the pid file) names, if it is still a Kafka broker. */
export async function stopLocalKafka(env, log) {
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

/** The one line `up` prints about Kafka. */
export function describeKafka(k) {
  if (k.source === 'env') return `kafka     ${k.brokers} (from KAFKA_BROKERS)`;
  if (k.source === 'docker')
    return `kafka     docker compose service kafka on ${k.brokers}${k.started ? ' (started)' : ' (already running)'}, ready after ${secs(k.readyMs)}`;
  const what = k.started
    ? `started pid ${k.pid}, ready in ${secs(k.readyMs)}${k.formatMs ? ` (+ storage format ${secs(k.formatMs)})` : ''}${k.fetchMs ? ` (+ jar fetch ${secs(k.fetchMs)})` : ''}`
    : k.owned
      ? `already running, pid ${k.pid}`
      : 'already running (not ours, left alone)';
  return `kafka     local KRaft broker ${KAFKA_VERSION} on ${k.brokers}: ${what}${k.rssKb ? `, RSS ${Math.round(k.rssKb / 1024)} MB` : ''}`;
}
