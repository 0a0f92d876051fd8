// The architecture's basic move, taken apart (issue 35's hop):
//   raw    one raw kafkajs round trip on the same broker: a request produced, consumed by an echo consumer
//          that produces the reply, consumed back (two Kafka hops, no framework): the physical limit;
//   hop    the platform's KafkaRequester (the gateway's) asking `users.ping`, which the platform answers
//          with no work: the hop alone, every layer of ours (Nest, validation, actor signing, reply routing);
//   full   GET /api/admin/refreshtoken through the gateway with its session cache off: HTTP, the hop, and the
//          users service's two Postgres reads of the session and the user;
//   direct the same user read straight from Postgres.
// Sequential requests after a warm-up, interleaved in rounds so the machine's load falls on all alike.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as infra from '../deploy/local/infra.mjs';
import * as stack from '../scripts/stack.mjs';
import { figure, writeResult } from './figures.mjs';
import { signInAs, untilQuiet } from './lib.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Kafka, logLevel } = require('kafkajs');
const { KafkaRequester } = require('@irp/platform');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_REQUESTS ?? 1000);
const ROUNDS = 10;
const WARMUP = 50;
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const base = `http://127.0.0.1:${process.env.GATEWAY_PORT}`;
/** Two topics nothing consumes in a bench run: the raw round trip's request and reply. */
const RAW = { request: 'stock.archived.dlq', reply: 'user.upserted.dlq' };

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x) => +x.toFixed(3);
  return {
    n: s.length,
    p50: r(pct(s, 50)),
    p99: r(pct(s, 99)),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
  };
}
async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** A raw kafkajs request/reply pair on RAW's topics: an echo consumer and a waiting one. */
async function rawRoundTrip(brokers) {
  const kafka = new Kafka({ clientId: 'bench-raw', brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  const echo = kafka.consumer({ groupId: `bench-raw-echo-${process.pid}` });
  const back = kafka.consumer({ groupId: `bench-raw-back-${process.pid}` });
  await Promise.all([producer.connect(), echo.connect(), back.connect()]);
  await echo.subscribe({ topic: RAW.request });
  await back.subscribe({ topic: RAW.reply });
  const waiting = new Map();
  // Both own their partitions before the first request (a group's first join takes a moment).
  const joined = [echo, back].map((c) => new Promise((resolve) => c.on(c.events.GROUP_JOIN, resolve)));
  await echo.run({
    eachMessage: ({ message }) => producer.send({ topic: RAW.reply, messages: [{ value: message.value }] }),
  });
  await back.run({ eachMessage: async ({ message }) => waiting.get(message.value.toString())?.() });
  await Promise.all(joined);
  let k = 0;
  return {
    async ask() {
      // A group's first fetch starts at the topic's end as it finds it, so a warm-up request sent just
      // before may go unseen: one that is not answered within 5 s is sent again (never in the timed rounds,
      // where both consumers have been reading for a while).
      for (;;) {
        const id = `r${k++}`;
        let timer;
        const answered = new Promise((resolve) => {
          waiting.set(id, () => resolve(true));
          timer = setTimeout(() => resolve(false), 5000);
        });
        await producer.send({ topic: RAW.request, messages: [{ value: id }] });
        const ok = await answered;
        clearTimeout(timer);
        waiting.delete(id);
        if (ok) return;
      }
    },
    close: () => Promise.all([echo.disconnect(), back.disconnect(), producer.disconnect()]),
  };
}

const { env } = await infra.up({ envFile: ENV_FILE, database: 'irportal_bench' });
process.env.SESSION_CACHE_MS = '0';
await stack.up({ detach: true, web: 'none', infraEnv: ENV_FILE });
const pg = new Client({ connectionString: env.DATABASE_URL });
const brokers = env.KAFKA_BROKERS.split(',');
const requester = new KafkaRequester({
  brokers,
  service: `bench-hop-${process.pid}`,
  instanceId: '1',
  topics: ['users.ping'],
  timeoutMs: 10_000,
});
let raw;
try {
  const session = await signInAs(base, 'client', 'Client!2026');
  const full = async () => {
    const res = await fetch(`${base}/api/admin/refreshtoken`, { headers: { cookie: session.cookie } });
    if (res.status !== 200) throw new Error(`refreshtoken answered ${res.status}`);
    await res.arrayBuffer();
  };
  await pg.connect();
  const direct = () =>
    pg.query(
      `SELECT u.id, u.username, u.roles, coalesce(json_object_agg(s.stock_id, s.roles) FILTER (WHERE s.stock_id IS NOT NULL), '{}') AS stock_roles
         FROM users.users u LEFT JOIN users.user_stock_roles s ON s.user_id = u.id
        WHERE lower(u.username) = lower($1) GROUP BY u.id`,
      ['client'],
    );
  await requester.connect();
  const hop = () => requester.request('users.ping', {});
  raw = await rawRoundTrip(brokers);
  await untilQuiet(ENV_FILE);
  const kinds = { raw: raw.ask, hop, full, direct };
  for (const fn of Object.values(kinds)) for (let i = 0; i < WARMUP; i++) await fn();
  const samples = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [k, fn] of Object.entries(kinds))
      for (let i = 0; i < N / ROUNDS; i++) samples[k].push(await time(fn));
  const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summary(v)]));
  const B = 'auth-roundtrip';
  const figures = [
    figure(B, 'hop p50 (requester → users.ping → reply)', s.hop.p50, 'ms', {
      goal: { max: 5 },
      ratio: { value: s.hop.p50 / s.raw.p50, better: 'lower' },
    }),
    figure(B, 'hop p99', s.hop.p99, 'ms', {
      goal: { max: 20 },
      ratio: { value: s.hop.p99 / s.raw.p99, better: 'lower' },
    }),
    figure(B, 'raw kafkajs round trip p50 (the limit)', s.raw.p50, 'ms'),
    figure(B, 'gateway round trip p50 (refreshtoken, cache off)', s.full.p50, 'ms', {
      ratio: { value: s.full.p50 / s.direct.p50, better: 'lower' },
    }),
    figure(B, 'gateway round trip p50 ÷ direct read p50', s.full.p50 / s.direct.p50, '×', {
      goal: { max: 20 },
    }),
    figure(B, 'gateway round trip p99', s.full.p99, 'ms', {
      ratio: { value: s.full.p99 / s.direct.p99, better: 'lower' },
    }),
    figure(B, 'direct Postgres read p50', s.direct.p50, 'ms'),
  ];
  writeResult(B, { benchmark: B, at: new Date().toISOString(), requests: N, ...s }, figures);
  for (const [k, v] of Object.entries(s))
    console.log(`${k.padEnd(7)} p50 ${v.p50} ms, p99 ${v.p99} ms (mean ${v.mean})`);
} finally {
  await raw?.close().catch(() => {});
  await requester.close().catch(() => {});
  await pg.end().catch(() => {});
  await stack.down();
  await infra.down({ envFile: ENV_FILE });
}
