// What the benchmarks share: percentiles, the admin session, system settings, bench stocks, a fresh database.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as infra from '../deploy/local/infra.mjs';
import { readUsage } from './process-usage.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { CompressionTypes, Kafka, logLevel } = require('kafkajs');
// The fixtures every suite shares (proto's dist: the bench runs on the built stack).
const { stockFixture } = require('@irp/proto/testing');
const { sendRequestTopicOf } = require('@irp/proto');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** n, p50, p95, max of samples in ms, one decimal. */
export function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x) => +x.toFixed(1);
  return { n: s.length, p50: r(pct(s, 50)), p95: r(pct(s, 95)), max: r(s[s.length - 1]) };
}

/** n, p50, p99, max of a browser list's samples in ms, two decimals; NaN where none were taken. */
export function listSummary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return { n: 0, p50: NaN, p99: NaN, max: NaN };
  const r = (x) => +x.toFixed(2);
  return { n: s.length, p50: r(pct(s, 50)), p99: r(pct(s, 99)), max: r(s[s.length - 1]) };
}

/** Bench tickers: 'BN' + four base-36 digits (letters and digits, at least 3, as the ticker rule wants). */
export const tickerOf = (i) => `BN${i.toString(36).toUpperCase().padStart(4, '0')}`;
export const stockIdOf = (i) => `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;

/** A whole `stock.upserted` event (proto's StockSchema) of a polled ASX stock whose initial poll is done. */
export function stockEvent(i, now, fields = {}) {
  return stockFixture({
    id: stockIdOf(i),
    ticker: tickerOf(i),
    companyName: `Bench ${i} Limited`,
    created: now,
    announcementStartYear: new Date().getFullYear(),
    billingDate: now,
    updatedAt: now,
    ...fields,
  });
}

/** Sends `stock.upserted` for bench stocks 1..count (500 a produce request, gzip), with `fields` on each. */
export async function publishStocks(producer, count, fields = {}) {
  const now = new Date().toISOString();
  for (let from = 1; from <= count; from += 500) {
    const messages = [];
    for (let i = from; i < Math.min(from + 500, count + 1); i++)
      messages.push({ key: stockIdOf(i), value: JSON.stringify(stockEvent(i, now, fields)) });
    await producer.send({ topic: 'stock.upserted', compression: CompressionTypes.GZIP, messages });
  }
}

/**
 * Signs in as a demo user; the cookie header and XSRF token for state-changing calls. A stack that has just
 * started may answer 503 while a service's consumer still joins its group: signing in is asked again until
 * the stack answers (at most a minute), so no bench measures, or dies, before its stack is ready.
 */
export async function signInAs(base, username, password) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${base}/api/login`, {
      headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    });
    if (res.ok) {
      const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
      const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
      return { base, cookie: cookies.join('; '), xsrf: decodeURIComponent(xsrf) };
    }
    const body = await res.text();
    if (res.status !== 503 || Date.now() > deadline)
      throw new Error(`login of ${username} failed: ${res.status} ${body.slice(0, 300)}`);
    await sleep(500);
  }
}

/** Signs in as the demo admin (signInAs). */
export const signIn = (base) => signInAs(base, 'admin', 'Admin!2026');

/** Saves the system settings with this announcement service (limits as given). */
export async function setSource(session, announcementService, limits = { hourly: 10, daily: 30 }) {
  const res = await fetch(`${session.base}/api/admin/systemSettings`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, 'content-type': 'application/json' },
    body: JSON.stringify({
      announcementService,
      errorEmail: '',
      hourlyAutoSendLimit: limits.hourly,
      dailyAutoSendLimit: limits.daily,
      disablePollUntil: null,
      useNightmare: false,
    }),
  });
  if (!res.ok) throw new Error(`saving system settings answered ${res.status}: ${await res.text()}`);
}

/**
 * Makes the bench's database afresh: stand-ins number their data from 1 in every run, so rows an earlier run
 * stored under the same keys would hide this run's.
 */
export async function freshDatabase(databaseUrl) {
  const admin = new URL(databaseUrl);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new Pool({ connectionString: admin.toString(), max: 1 });
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
}

/**
 * A bench's stack: the infrastructure of `envFile` up, its `database` made afresh, every service and the
 * gateway started detached by `stack` (scripts/stack.mjs, loaded by the bench after setting its ports);
 * a PostgreSQL pool and a Kafka client on them.
 */
export async function startBenchStack(stack, { envFile, database }) {
  const { env } = await infra.up({ envFile, database });
  try {
    await freshDatabase(env.DATABASE_URL);
    // A stack that fails to start stops what it started; the infrastructure is the bench's to stop.
    await stack.up({ detach: true, web: 'none', infraEnv: envFile });
  } catch (err) {
    await infra.down({ envFile });
    throw err;
  }
  const pg = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const kafka = new Kafka({
    clientId: 'bench',
    brokers: env.KAFKA_BROKERS.split(','),
    logLevel: logLevel.NOTHING,
  });
  return { env, pg, kafka, producer: kafka.producer() };
}

/**
 * Polls `query` (returning one row with n) until n >= want; `onProgress(n)` every 10 s. Gives up only when n
 * has not grown for `stalledMs`: a slow machine takes longer, a stuck stack stops (the scale bench's 40,000
 * stocks were 37,130 polled after a 900 s deadline on a machine half as fast, and still going).
 */
export async function waitForCount(pg, what, query, want, stalledMs = 180_000, onProgress) {
  let last = -1;
  let since = Date.now();
  for (let k = 1; ; k++) {
    const { rows } = await pg.query(query);
    const n = rows[0].n;
    if (n >= want) return;
    if (n > last) [last, since] = [n, Date.now()];
    if (k % 20 === 0) onProgress?.(n);
    if (Date.now() - since > stalledMs)
      throw new Error(`${what}: ${n} of ${want}, none more in the last ${stalledMs / 1000} s`);
    await sleep(500);
  }
}

/**
 * Waits until the stack and its broker are quiet: their CPU over a `windowMs` window under `maxCores` of a
 * core. A stack that has just started is still warming (projection bootstraps, the demo stocks' first polls,
 * the broker's and the services' compilers), and a hop measured then measured the start-up beside it: on
 * 2026-11-30 the same hop was 8.3 ms p50 right after `stack.up` and 3.7 ms a few minutes later. Gives up
 * after `maxMs` and says so (the figures are then taken on a busy stack). Returns the wait in ms.
 */
export async function untilQuiet(envFile, { windowMs = 3000, maxCores = 0.25, maxMs = 180_000 } = {}) {
  const state = JSON.parse(fs.readFileSync(path.join(infra.ROOT, '.local', 'stack', 'state.json'), 'utf8'));
  const pids = state.processes.map((p) => p.pid);
  const broker = Number(infra.readEnvFile(envFile).KAFKA_PID);
  if (broker) pids.push(broker);
  const cpu = () => pids.reduce((sum, pid) => sum + (readUsage(pid)?.cpuSeconds ?? 0), 0);
  const started = Date.now();
  let cores = Infinity;
  while (Date.now() - started < maxMs) {
    const before = cpu();
    await sleep(windowMs);
    cores = (cpu() - before) / (windowMs / 1000);
    if (cores < maxCores) {
      console.log(
        `  the stack is quiet (${cores.toFixed(2)} cores) after ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      return Date.now() - started;
    }
  }
  console.log(
    `  the stack did not quiet within ${maxMs / 1000} s (last ${cores.toFixed(2)} cores): figures taken on a busy stack`,
  );
  return Date.now() - started;
}

/**
 * A manual send of `announcement` by email to stock `i`'s subscribers, as the Send button (with override)
 * asks for it: { topic, key, value } of the message, on a price-sensitive announcement's own topic
 * (docs/adr/0018).
 */
export function manualSendRequest(i, announcement) {
  return {
    topic: sendRequestTopicOf(announcement),
    key: stockIdOf(i),
    value: {
      requestId: randomUUID(),
      stockId: stockIdOf(i),
      combinedTicker: `${tickerOf(i)}:ASX`,
      channels: ['email'],
      override: true,
      auto: false,
      requestedBy: 'bench',
      requestedAt: new Date().toISOString(),
      announcement,
    },
  };
}

/**
 * Reads `topic` from its start to its end as it is now and returns, per key that `keysOf(value)` gives a
 * message (its parsed JSON value), the earliest message timestamp (the producer's create time, ms) not
 * before `since` (the broker keeps earlier runs' messages, whose keys may repeat).
 */
export async function firstOnTopic(kafka, topic, keysOf, since = 0) {
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const left = new Map(
    ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]),
  );
  const first = new Map();
  if (!left.size) return first;
  const consumer = kafka.consumer({
    groupId: `bench-read-${process.pid}-${Date.now()}`,
    maxWaitTimeInMs: 100,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            const at = Number(message.timestamp);
            if (at >= since)
              for (const key of keysOf(JSON.parse(message.value.toString())))
                if (!(first.get(key) <= at)) first.set(key, at);
            if (Number(message.offset) + 1 >= left.get(partition)) left.delete(partition);
            if (!left.size) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return first;
}
