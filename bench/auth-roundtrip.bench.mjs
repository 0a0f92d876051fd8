// Gateway -> Kafka -> users service -> reply, against a direct Postgres read of the same user.
// 1,000 sequential GET /api/admin/refreshtoken with the gateway's session cache off, so every request
// makes the full round trip (the users service reads the session and the user with its stock roles).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as infra from '../deploy/local/infra.mjs';
import * as stack from '../scripts/stack.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_REQUESTS ?? 1000);
const WARMUP = 50;
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const base = `http://127.0.0.1:${process.env.GATEWAY_PORT}`;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: +pct(s, 50).toFixed(3),
    p99: +pct(s, 99).toFixed(3),
    mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(3),
  };
}
async function time(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const { env } = await infra.up({ envFile: ENV_FILE, database: 'irportal_bench' });
process.env.SESSION_CACHE_MS = '0';
await stack.up({ detach: true, web: 'none', infraEnv: ENV_FILE });
const pg = new Client({ connectionString: env.DATABASE_URL });
try {
  const login = await fetch(`${base}/api/login`, {
    headers: { Authorization: `Basic ${Buffer.from('client:Client!2026').toString('base64')}` },
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const viaGateway = async () => {
    const res = await fetch(`${base}/api/admin/refreshtoken`, { headers: { cookie } });
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
  for (let i = 0; i < WARMUP; i++) {
    await viaGateway();
    await direct();
  }
  const gatewayMs = [];
  const directMs = [];
  for (let i = 0; i < N; i++) gatewayMs.push(await time(viaGateway));
  for (let i = 0; i < N; i++) directMs.push(await time(direct));
  const g = summary(gatewayMs);
  const d = summary(directMs);
  const result = {
    benchmark: 'auth-roundtrip',
    at: new Date().toISOString(),
    requests: N,
    gateway_kafka_users_ms: g,
    direct_postgres_ms: d,
    ratio: { p50: +(g.p50 / d.p50).toFixed(1), p99: +(g.p99 / d.p99).toFixed(1) },
  };
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench', 'results', 'auth-roundtrip.json'),
    JSON.stringify(result, null, 2),
  );
  console.log(`gateway -> Kafka -> users -> reply: p50 ${g.p50} ms, p99 ${g.p99} ms (mean ${g.mean})`);
  console.log(`direct Postgres read of the user:   p50 ${d.p50} ms, p99 ${d.p99} ms (mean ${d.mean})`);
  console.log(`ratio (round trip / direct read):   p50 ${result.ratio.p50}x, p99 ${result.ratio.p99}x`);
} finally {
  await pg.end().catch(() => {});
  await stack.down();
  await infra.down({ envFile: ENV_FILE });
}
