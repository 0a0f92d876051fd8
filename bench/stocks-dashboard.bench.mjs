// The staff dashboard with 2,000 stocks (issue 3):
//  1. GET /api/admin/stocks through gateway -> Kafka -> stocks service -> reply, 50 concurrent clients,
//     against a direct Postgres read of the same rows with 50 concurrent connections;
//  2. in Chromium (Debian's /usr/bin/chromium), the time to render the 2,000-row dashboard and to apply
//     one filter keystroke.
/* global document -- the page.evaluate callbacks below run in the browser */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as infra from '../deploy/local/infra.mjs';
import * as stack from '../scripts/stack.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { chromium } = require('@playwright/test');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STOCKS = Number(process.env.BENCH_STOCKS ?? 2000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const base = `http://127.0.0.1:${process.env.GATEWAY_PORT}`;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x) => +x.toFixed(2);
  return {
    n: s.length,
    p50: r(pct(s, 50)),
    p99: r(pct(s, 99)),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
  };
}
async function time(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}
/** `total` calls of `fn` spread over `clients` concurrent loops; returns each call's latency. */
async function concurrently(clients, total, fn) {
  const samples = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        next++;
        samples.push(await time(fn));
      }
    }),
  );
  return samples;
}

const { env } = await infra.up({ envFile: ENV_FILE, database: 'irportal_bench' });
await stack.up({ detach: true, web: 'dist', infraEnv: ENV_FILE });
const pg = new Pool({ connectionString: env.DATABASE_URL, max: CLIENTS });
let browser;
try {
  const seeded = spawnSync(process.execPath, ['services/stocks/dist/seed.js', `--synthetic=${STOCKS}`], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', KAFKAJS_NO_PARTITIONER_WARNING: '1' },
    stdio: 'inherit',
  });
  if (seeded.status !== 0) throw new Error('seeding the synthetic stocks failed');
  const { rows } = await pg.query('SELECT count(*)::int AS n FROM stocks.stocks');
  const total = rows[0].n;

  const login = await fetch(`${base}/api/login`, {
    headers: { Authorization: `Basic ${Buffer.from('admin:Admin!2026').toString('base64')}` },
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]);
  const cookie = cookies.join('; ');
  let bytes = 0;
  const viaGateway = async () => {
    const res = await fetch(`${base}/api/admin/stocks`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`GET /api/admin/stocks answered ${res.status}`);
    const body = await res.json();
    if (body.length !== total) throw new Error(`expected ${total} stocks, got ${body.length}`);
    bytes = JSON.stringify(body).length;
  };
  // The same rows the stocks service reads for stocks.list, straight from Postgres.
  const direct = () => pg.query('SELECT * FROM stocks.stocks ORDER BY created DESC');

  for (let i = 0; i < 10; i++) {
    await viaGateway();
    await direct();
  }
  const g = summary(await concurrently(CLIENTS, REQUESTS, viaGateway));
  const d = summary(await concurrently(CLIENTS, REQUESTS, direct));

  // Chromium: sign in through the API (cookies), then time the dashboard.
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  await context.addCookies(
    cookies.map((c) => {
      const i = c.indexOf('=');
      return { name: c.slice(0, i), value: c.slice(i + 1), url: base };
    }),
  );
  const page = await context.newPage();
  const renderMs = [];
  const keystrokeMs = [];
  const rowsSelector = '[data-testid="dashboard-row"]';
  for (let run = 0; run < BROWSER_RUNS + 1; run++) {
    await page.goto(`${base}/`, { waitUntil: 'commit' });
    const t0 = Date.now();
    await page.waitForFunction(
      ([sel, n]) => document.querySelectorAll(sel).length >= n,
      [rowsSelector, Math.min(total, 2000)],
      { timeout: 60_000, polling: 'raf' },
    );
    const rendered = Date.now() - t0;
    const filter = page.getByTestId('dashboard-filter');
    await filter.fill('');
    const before = await page.locator(rowsSelector).count();
    const t1 = Date.now();
    await filter.press('Z');
    await page.waitForFunction(
      ([sel, n]) => document.querySelectorAll(sel).length !== n,
      [rowsSelector, before],
      { timeout: 30_000, polling: 'raf' },
    );
    const keystroke = Date.now() - t1;
    await filter.fill('');
    if (run > 0) {
      // run 0 warms the browser cache and the gateway.
      renderMs.push(rendered);
      keystrokeMs.push(keystroke);
    }
  }
  const render = summary(renderMs);
  const keystroke = summary(keystrokeMs);

  const result = {
    benchmark: 'stocks-dashboard',
    at: new Date().toISOString(),
    stocks: total,
    reply_json_bytes: bytes,
    concurrent_clients: CLIENTS,
    requests: REQUESTS,
    gateway_kafka_stocks_ms: g,
    direct_postgres_ms: d,
    ratio: { p50: +(g.p50 / d.p50).toFixed(1), p99: +(g.p99 / d.p99).toFixed(1) },
    chromium_render_ms: render,
    chromium_filter_keystroke_ms: keystroke,
  };
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench', 'results', 'stocks-dashboard.json'),
    JSON.stringify(result, null, 2),
  );
  console.log(`${total} stocks, reply ${(bytes / 1e6).toFixed(2)} MB of JSON, ${CLIENTS} concurrent clients`);
  console.log(`gateway -> Kafka -> stocks -> reply: p50 ${g.p50} ms, p99 ${g.p99} ms (mean ${g.mean})`);
  console.log(`direct Postgres read of the rows:   p50 ${d.p50} ms, p99 ${d.p99} ms (mean ${d.mean})`);
  console.log(`ratio (round trip / direct read):   p50 ${result.ratio.p50}x, p99 ${result.ratio.p99}x`);
  console.log(
    `Chromium: render ${total} rows p50 ${render.p50} ms (max of ${render.n}: ${Math.max(...renderMs)} ms)`,
  );
  console.log(`Chromium: one filter keystroke p50 ${keystroke.p50} ms (max ${Math.max(...keystrokeMs)} ms)`);
} finally {
  await browser?.close().catch(() => {});
  await pg.end().catch(() => {});
  await stack.down();
  await infra.down({ envFile: ENV_FILE });
}
