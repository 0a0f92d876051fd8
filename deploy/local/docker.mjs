// Docker: used when an engine answers (and INFRA_DOCKER is not 0), for the parts not given by the
// environment: `docker compose up -d kafka postgres` from the root docker-compose.yml.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { waitForKafka } from './kafka.mjs';
import { ensureDatabase, pgAdminUrl, waitForPostgres } from './postgres.mjs';
import { ROOT, run, splitList, which } from './shared.mjs';

const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const READY_TIMEOUT_MS = 120_000;

/** An engine answers `docker info` within 3 s and the `docker compose` plugin (compose v2) is there. */
export function dockerAnswers() {
  if (process.env.INFRA_DOCKER === '0' || process.env.INFRA_DOCKER === 'never') return false;
  if (!which('docker')) return false;
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    stdio: 'ignore',
    timeout: 3000,
  });
  if (r.status !== 0) return false;
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

/**
 * Starts the compose services of the parts needed and waits until they answer. `prevServices` is the
 * env file's INFRA_DOCKER_SERVICES: services an earlier `up` started stay ours while they run.
 * Returns { newly, ours, kafka?, postgres? } (`ours`: the services `down` will stop).
 */
export async function dockerUp({ needKafka, needPg, kafkaPort, pgPort, database, prevServices }) {
  const services = [needKafka && 'kafka', needPg && 'postgres'].filter(Boolean);
  const t0 = Date.now();
  const before = await composeRunning();
  const r = await compose(['up', '-d', ...services], {
    env: { ...process.env, KAFKA_PORT: String(kafkaPort), PG_PORT: String(pgPort) },
  });
  if (r.code !== 0)
    throw new Error(`docker compose up -d ${services.join(' ')} failed:\n${r.out.slice(-4000)}`);
  const newly = services.filter((s) => !before.has(s));
  const kept = splitList(prevServices).filter((s) => services.includes(s) && before.has(s));
  const result = { newly, ours: [...new Set([...kept, ...newly])] };
  if (needKafka) {
    const brokers = `127.0.0.1:${kafkaPort}`;
    await waitForKafka(brokers, READY_TIMEOUT_MS);
    result.kafka = { source: 'docker', brokers, started: newly.includes('kafka'), readyMs: Date.now() - t0 };
  }
  if (needPg) {
    const adminUrl = pgAdminUrl(pgPort);
    await waitForPostgres(adminUrl, READY_TIMEOUT_MS);
    result.postgres = {
      source: 'docker',
      url: `postgres://postgres@127.0.0.1:${pgPort}/${database}`,
      database,
      createdDatabase: await ensureDatabase(adminUrl, database),
      started: newly.includes('postgres'),
    };
  }
  return result;
}

/** `docker compose stop` of the services the env file records; returns whether it stopped any. */
export async function dockerStop(env, log) {
  const services = splitList(env.INFRA_DOCKER_SERVICES);
  if (services.length === 0) return false;
  const r = await compose(['stop', ...services]);
  if (r.code !== 0)
    throw new Error(`docker compose stop ${services.join(' ')} failed:\n${r.out.slice(-4000)}`);
  log(`docker    stopped ${services.join(', ')}`);
  return true;
}
