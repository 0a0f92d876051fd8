// The staff dashboard at 2,000 and 20,000 stocks and the subscriber list at 50,000 (issues 3 and 35):
//  1. GET /api/admin/stocks through gateway -> Kafka -> stocks service -> reply, against a direct Postgres
//     read of the same rows, on fair terms both ways:
//     - caches off: one request at a time (nothing to share), each on a session of its own (the gateway's
//       session cache misses) after a row's updated_at was touched (the stocks service's fingerprint cache
//       misses), against a plain read of the rows;
//     - caches on: 50 concurrent clients (the direct reads over BENCH_PG_CONNECTIONS connections), against a
//       direct read with the same caching (identical
//       concurrent reads share one query; the rows are kept while the table's fingerprint is unchanged);
//       the plain direct read beside it, as the earlier runs compared;
//  2. in Chromium (Debian's /usr/bin/chromium), the dashboard's first render after its data arrived and
//     one filter keystroke, timed inside the page (bench/list-timing.mjs), then BENCH_KEY_PROFILES more
//     keystrokes profiled by the web app's sources (bench/page-profile.mjs) and as many traced (the main
//     thread's style, layout and paint beside its scripts: bench/page-trace.mjs);
//  3. the staff stock page's subscriber list with 50,000 subscribers of one stock: its render after the
//     data arrived, and a jump to its end;
//  4. issue 35's other long lists (announcements, invoices, referers, reports, users): bench/long-lists.mjs.
/* global window, document, requestAnimationFrame -- the page.evaluate callbacks below run in the browser */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as infra from '../deploy/local/infra.mjs';
import * as stack from '../scripts/stack.mjs';
import { freshDatabase, listSummary as summary, signIn as signInAdmin, sleep, untilQuiet } from './lib.mjs';
import { changeMatching, forgetChanges, keyAt, listTimingScript, responseEnd } from './list-timing.mjs';
import { figure, writeResult } from './figures.mjs';
import { LONG_LIST_SELECTORS, measureLongLists } from './long-lists.mjs';
import { logWhere, whereTimeGoes } from './page-profile.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { chromium } = require('@playwright/test');
// proto's dist (the bench runs on the built stack): how many subscribers the first page holds.
const { SUBSCRIBER_PAGE_SIZE } = require('@irp/proto');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// An empty BENCH_STOCKS skips the dashboard's scales (the subscribers and the other lists still run).
const SCALES = (process.env.BENCH_STOCKS ?? '2000,20000').split(',').filter(Boolean).map(Number);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
// Keystrokes profiled after the timed ones at each scale (0: none).
const KEY_PROFILES = Number(process.env.BENCH_KEY_PROFILES ?? 10);
const COLD_REQUESTS = Number(process.env.BENCH_COLD_REQUESTS ?? 30);
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 50_000);
// The direct reads' connections: PostgreSQL's 100 are shared with the stack's services (about 30) and
// whatever else runs on the machine, so the 50 clients share fewer connections, queueing for one as the
// services' own pools make their requests queue.
const PG_CONNECTIONS = Number(process.env.BENCH_PG_CONNECTIONS ?? 25);
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const base = `http://127.0.0.1:${process.env.GATEWAY_PORT}`;
const GOALS = { renderMs: 300, keystrokeMs: 16 };

async function time(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}
/**
 * `total` calls of `fn` spread over `clients` concurrent loops: each answered call's latency, and how many
 * failed (a 503 when the gateway's wait for the service ran out), which are counted, not timed.
 */
async function concurrently(clients, total, fn) {
  const samples = [];
  let failed = 0;
  /** How many failed for each reason (the answer's status, or the client's error). */
  const reasons = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        next++;
        await time(fn).then(
          (ms) => samples.push(ms),
          (error) => {
            failed++;
            const reason = String(error?.cause?.code ?? error?.message ?? error).slice(0, 120);
            reasons[reason] = (reasons[reason] ?? 0) + 1;
          },
        );
      }
    }),
  );
  return { ...summary(samples), failed, ...(failed ? { reasons } : {}) };
}
const ratio = (a, b) => ({ p50: +(a.p50 / b.p50).toFixed(2), p99: +(a.p99 / b.p99).toFixed(2) });
const met = (value, goal) => (value < goal ? 'met' : 'not met');

/** The demo admin's session cookies (lib.mjs's signIn, which asks again while the stack answers 503). */
const signIn = async () => (await signInAdmin(base)).cookie.split('; ');

/** The same caching as the gateway and the stocks service, over a direct read (see the header). */
function cachedDirectRead(pg) {
  let inFlight = null;
  let kept = null;
  const read = async () => {
    const { rows } = await pg.query(
      'SELECT count(*)::text AS n, coalesce(sum(extract(epoch FROM updated_at)), 0)::text AS s FROM stocks.stocks',
    );
    const fingerprint = `${rows[0].n}/${rows[0].s}`;
    if (kept?.fingerprint === fingerprint) return kept.rows;
    const all = await pg.query('SELECT * FROM stocks.stocks ORDER BY created DESC, id ASC');
    kept = { fingerprint, rows: all.rows };
    return all.rows;
  };
  return () => {
    inFlight ??= read().finally(() => (inFlight = null));
    return inFlight;
  };
}

/** The last list the gateway answered: the rows the browser is given where the gateway gives none. */
let lastReply = [];

/** `n` dashboard rows made from `template`'s (the gateway's real ones), each with a ticker of its own. */
const rowsLike = (template, n) =>
  Array.from({ length: n }, (_, i) => {
    const row = template[i % template.length];
    const ticker = `Q${String(i).padStart(5, '0')}`;
    return { ...row, id: `bench-${i}`, ticker, combinedTicker: `${ticker}:${row.exchange}` };
  });

/**
 * The page gets `body` for requests to `path` from the bench (the built app against seeded data) instead of
 * the gateway, which did not answer; `undefined` leaves the gateway answering.
 */
async function fulfil(page, path, body) {
  await page.unroute(`**${path}*`);
  if (body === undefined) return;
  const text = JSON.stringify(body);
  await page.route(`**${path}*`, (route) =>
    route.fulfill({ body: text, contentType: 'application/json', headers: { 'x-unavailable-services': '' } }),
  );
}

async function measureServer(pg, cookies, total) {
  const stocksOf = async (cookie) => {
    const res = await fetch(`${base}/api/admin/stocks`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`GET /api/admin/stocks answered ${res.status}`);
    const body = await res.json();
    if (body.length !== total) throw new Error(`expected ${total} stocks, got ${body.length}`);
    return body;
  };
  const cookie = cookies.join('; ');
  // The services may still be joining their consumer groups right after the stack and the seed: a 503
  // until they answer is the stack warming up, not a figure. Five answers in a row end the warm-up.
  const deadline = Date.now() + 120_000;
  let first;
  for (let answered = 0; answered < 5;) {
    const body = await stocksOf(cookie).catch((error) => {
      if (Date.now() > deadline) throw error;
      answered = 0;
      return sleep(2000).then(() => undefined);
    });
    if (body) {
      first ??= body;
      answered++;
    }
  }
  const bytes = JSON.stringify(first).length;
  lastReply = first;
  const direct = () => pg.query('SELECT * FROM stocks.stocks ORDER BY created DESC, id ASC');
  const directCached = cachedDirectRead(pg);
  for (let i = 0; i < 5; i++) {
    await direct();
    await directCached();
  }
  // Caches off: untimed, a new session and a touched row before each timed request.
  const coldGateway = [];
  let coldFailed = 0;
  for (let i = 0; i < COLD_REQUESTS; i++) {
    const fresh = (await signIn()).join('; ');
    await pg.query(
      'UPDATE stocks.stocks SET updated_at = now() WHERE id = (SELECT id FROM stocks.stocks ORDER BY created LIMIT 1)',
    );
    await time(() => stocksOf(fresh)).then(
      (ms) => coldGateway.push(ms),
      () => coldFailed++,
    );
  }
  const coldDirect = [];
  for (let i = 0; i < COLD_REQUESTS; i++) coldDirect.push(await time(direct));
  // Caches on: 50 clients at once.
  const warmGateway = await concurrently(CLIENTS, REQUESTS, () => stocksOf(cookie));
  const warmCached = await concurrently(CLIENTS, REQUESTS, directCached);
  const warmDirect = await concurrently(CLIENTS, REQUESTS, direct);
  const cold = {
    gateway_ms: { ...summary(coldGateway), failed: coldFailed },
    direct_ms: summary(coldDirect),
  };
  cold.ratio = ratio(cold.gateway_ms, cold.direct_ms);
  return {
    reply_json_bytes: bytes,
    caches_off: cold,
    caches_on: {
      gateway_ms: warmGateway,
      direct_same_caching_ms: warmCached,
      ratio: ratio(warmGateway, warmCached),
      direct_uncached_ms: warmDirect,
      ratio_to_uncached: ratio(warmGateway, warmDirect),
    },
  };
}

const SHOWING = '[data-testid="staff-dashboard-showing"]';

async function measureDashboard(page, total) {
  const render = [];
  const keystroke = [];
  for (let run = 0; run < BROWSER_RUNS + 1; run++) {
    await page.goto(`${base}/`, { waitUntil: 'commit' });
    const shown = await changeMatching(page, SHOWING, new RegExp(`^Showing \\d+ of ${total}`));
    const arrived = await responseEnd(page, '/api/admin/stocks');
    const rows = await page.locator('[data-testid="dashboard-row"]').count();
    if (rows === 0) throw new Error('no dashboard rows rendered');
    const filter = page.getByTestId('dashboard-filter');
    await filter.click();
    await sleep(300);
    await forgetChanges(page);
    await page.keyboard.press('Z');
    const filtered = await changeMatching(page, SHOWING, /matching "Z"/);
    const pressed = await keyAt(page);
    await filter.fill('');
    if (run > 0) {
      // run 0 warms the browser cache and the gateway.
      render.push(shown.frameAt - arrived);
      keystroke.push(filtered.frameAt - pressed);
    }
    if (run === BROWSER_RUNS) console.log(`  ${rows} rows in the DOM of ${total}`);
  }
  // Where a keystroke's time goes: KEY_PROFILES more keystrokes profiled, as many traced
  // (bench/page-profile.mjs), after the timed ones.
  const filter = page.getByTestId('dashboard-filter');
  const keystroke_where =
    KEY_PROFILES > 0
      ? await whereTimeGoes(page, {
          windows: KEY_PROFILES,
          prepare: async () => {
            await sleep(300);
            await forgetChanges(page);
          },
          act: async () => {
            await page.keyboard.press('Z');
            await changeMatching(page, SHOWING, /matching "Z"/);
          },
          reset: () => filter.fill(''),
        })
      : undefined;
  if (keystroke_where) logWhere('keystroke', keystroke_where);
  return {
    render_after_data_ms: summary(render),
    keystroke_ms: summary(keystroke),
    keystroke_where,
  };
}

const SUBSCRIBER_ROWS = 'table[aria-label="Subscribers"] tbody';

async function measureSubscribers(page, pg, cookies) {
  const { rows } = await pg.query(
    `SELECT id FROM email_marketing.stocks WHERE ticker = 'BHP' AND exchange = 'ASX'`,
  );
  if (!rows[0]) throw new Error('BHP is not in the email-marketing projection');
  await pg.query(
    `INSERT INTO email_marketing.subscribers (stock_id, email, status, confirmed_at, subscribed_at)
     SELECT $1, 'bench-' || g || '@bench.example', 'confirmed', now(), now() - g * interval '1 minute'
     FROM generate_series(1, $2::int) g ON CONFLICT DO NOTHING`,
    [rows[0].id, SUBSCRIBERS],
  );
  const cookie = cookies.join('; ');
  const apiMs = [];
  let apiFailed = null;
  for (let i = 0; i < 6 && !apiFailed; i++) {
    await time(async () => {
      const res = await fetch(`${base}/api/admin/subscribers?combinedTicker=BHP:ASX`, {
        headers: { cookie },
      });
      if (res.status !== 200) throw new Error(`GET /api/admin/subscribers answered ${res.status}`);
      const body = await res.json();
      // The first page (proto's SUBSCRIBER_PAGE_SIZE), with the stock's counts; the page loads the rest.
      const counted = body.counts.pending + body.counts.confirmed + body.counts.unsubscribed;
      if (body.subscribers.length !== Math.min(SUBSCRIBERS, SUBSCRIBER_PAGE_SIZE) || counted < SUBSCRIBERS)
        throw new Error(`${body.subscribers.length} subscribers of ${counted}`);
    }).then(
      (ms) => apiMs.push(ms),
      (error) => (apiFailed = error.message),
    );
  }
  // Where the gateway gives no list, the page gets the same subscribers from the bench.
  const start = Date.now();
  const synthetic = {
    subscribers: Array.from({ length: SUBSCRIBERS }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      stockId: rows[0].id,
      email: `bench-${i + 1}@bench.example`,
      status: 'confirmed',
      subscribedAt: new Date(start - (i + 1) * 60_000).toISOString(),
      consentIp: '',
      consentUserAgent: '',
      confirmedAt: new Date(start).toISOString(),
      unsubscribedAt: null,
    })),
    counts: { confirmed: SUBSCRIBERS, pending: 0, unsubscribed: 0 },
    next: null,
  };
  await fulfil(page, '/api/admin/subscribers', apiFailed ? synthetic : undefined);
  await untilQuiet(ENV_FILE);
  const render = [];
  const wholeMs = [];
  const toEnd = [];
  for (let run = 0; run < BROWSER_RUNS + 1; run++) {
    await page.goto(`${base}/stocks/BHP:ASX/email-marketing`, { waitUntil: 'commit' });
    const shown = await changeMatching(page, SUBSCRIBER_ROWS, /@bench\.example/, 120_000);
    const arrived = await responseEnd(page, '/api/admin/subscribers', { first: true });
    // Every page shown: the table counts them all (aria-rowcount, with its header row; BHP's demo subscribers
    // too) and nothing loads.
    const whole = await (
      await page.waitForFunction(
        (rowCount) =>
          Number(document.querySelector('table[aria-label="Subscribers"]')?.getAttribute('aria-rowcount')) >=
            rowCount && !document.body.textContent.includes('Loading more subscribers')
            ? performance.now()
            : null,
        SUBSCRIBERS + 1,
        { timeout: 300_000, polling: 'raf' },
      )
    ).jsonValue();
    // The list's end: the last row (aria-rowindex = subscribers + 1) after one jump to the page's bottom.
    const last = await page.evaluate(
      () => document.querySelector('table[aria-label="Subscribers"]')?.getAttribute('aria-rowcount') ?? '',
    );
    const jumped = await page.evaluate(
      (rowindex) =>
        new Promise((resolve) => {
          const t0 = performance.now();
          window.scrollTo(0, document.documentElement.scrollHeight);
          const check = () => {
            if (document.querySelector(`table[aria-label="Subscribers"] tr[aria-rowindex="${rowindex}"]`))
              requestAnimationFrame(() => resolve(performance.now() - t0));
            else requestAnimationFrame(check);
          };
          check();
        }),
      last,
    );
    if (run > 0) {
      render.push(shown.frameAt - arrived);
      wholeMs.push(whole - arrived);
      toEnd.push(jumped);
    }
  }
  return {
    subscribers: SUBSCRIBERS,
    api_ms: apiFailed ? { failed: apiFailed } : summary(apiMs.slice(1)),
    data: apiFailed ? 'subscribers fulfilled by the bench' : 'the gateway',
    render_after_data_ms: summary(render),
    whole_list_after_data_ms: summary(wholeMs),
    jump_to_end_ms: summary(toEnd),
  };
}

const { env } = await infra.up({ envFile: ENV_FILE, database: 'irportal_bench' });
await freshDatabase(env.DATABASE_URL);
await stack.up({ detach: true, web: 'dist', infraEnv: ENV_FILE });
const pg = new Pool({ connectionString: env.DATABASE_URL, max: PG_CONNECTIONS });
let browser;
try {
  const cookies = await signIn();
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  await context.addInitScript(listTimingScript, [SHOWING, SUBSCRIBER_ROWS, ...LONG_LIST_SELECTORS]);
  await context.addCookies(
    cookies.map((c) => {
      const i = c.indexOf('=');
      return { name: c.slice(0, i), value: c.slice(i + 1), url: base };
    }),
  );
  const page = await context.newPage();
  const scales = [];
  for (const stocks of SCALES) {
    const seeded = spawnSync(process.execPath, ['services/stocks/dist/seed.js', `--synthetic=${stocks}`], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn', KAFKAJS_NO_PARTITIONER_WARNING: '1' },
      stdio: 'inherit',
    });
    if (seeded.status !== 0) throw new Error('seeding the synthetic stocks failed');
    const { rows } = await pg.query('SELECT count(*)::int AS n FROM stocks.stocks');
    const total = rows[0].n;
    console.log(`${total} stocks`);
    // The seed's stock events are still being projected by every service (and the new stocks' first polls
    // run): measured then, the list would be timed beside that work.
    await untilQuiet(ENV_FILE);
    const server = await measureServer(pg, cookies, total).catch((error) => ({ failed: error.message }));
    const { caches_off: off, caches_on: on } = server;
    if (server.failed)
      console.log(`  server: ${server.failed}; the browser gets ${total} rows from the bench`);
    else {
      console.log(
        `  caches off, one at a time: gateway p50 ${off.gateway_ms.p50} ms p99 ${off.gateway_ms.p99} (${off.gateway_ms.failed} failed), direct read p50 ${off.direct_ms.p50} ms p99 ${off.direct_ms.p99}: ${off.ratio.p50}x / ${off.ratio.p99}x`,
      );
      console.log(
        `  caches on, ${CLIENTS} clients: gateway p50 ${on.gateway_ms.p50} ms p99 ${on.gateway_ms.p99} (${on.gateway_ms.failed} failed${on.gateway_ms.reasons ? `: ${JSON.stringify(on.gateway_ms.reasons)}` : ''}), direct with the same caching p50 ${on.direct_same_caching_ms.p50} ms p99 ${on.direct_same_caching_ms.p99}: ${on.ratio.p50}x / ${on.ratio.p99}x (uncached direct p50 ${on.direct_uncached_ms.p50} ms: ${on.ratio_to_uncached.p50}x)`,
      );
    }
    await fulfil(page, '/api/admin/stocks', server.failed ? rowsLike(lastReply, total) : undefined);
    // The 50 clients' requests leave the stack busy a while (its caches, collections): the page is timed
    // on a quiet machine, as the server was.
    await untilQuiet(ENV_FILE);
    const ui = await measureDashboard(page, total);
    await fulfil(page, '/api/admin/stocks', undefined);
    ui.data = server.failed ? 'rows fulfilled by the bench' : 'the gateway';
    console.log(
      `  Chromium: render after data p50 ${ui.render_after_data_ms.p50} ms (max ${ui.render_after_data_ms.max}; goal < ${GOALS.renderMs}: ${met(ui.render_after_data_ms.p50, GOALS.renderMs)}), keystroke p50 ${ui.keystroke_ms.p50} ms (max ${ui.keystroke_ms.max}; goal < ${GOALS.keystrokeMs}: ${met(ui.keystroke_ms.p50, GOALS.keystrokeMs)})`,
    );
    scales.push({ stocks: total, ...server, chromium: ui });
  }
  // BENCH_SUBSCRIBERS=0 skips the subscriber list.
  const subscribers = SUBSCRIBERS > 0 ? await measureSubscribers(page, pg, cookies) : undefined;
  if (subscribers)
    console.log(
      `${SUBSCRIBERS} subscribers: GET ${subscribers.api_ms.failed ?? `p50 ${subscribers.api_ms.p50} ms`}; Chromium render after data p50 ${subscribers.render_after_data_ms.p50} ms (max ${subscribers.render_after_data_ms.max}; goal < ${GOALS.renderMs}: ${met(subscribers.render_after_data_ms.p50, GOALS.renderMs)}), every page shown p50 ${subscribers.whole_list_after_data_ms.p50} ms after the first's data, jump to the end p50 ${subscribers.jump_to_end_ms.p50} ms`,
    );
  // Issue 35's other long lists (bench/long-lists.mjs), each logged as it is measured.
  const longLists = await measureLongLists({ page, pg, base, cookies, env });
  const result = {
    benchmark: 'stocks-dashboard',
    at: new Date().toISOString(),
    goals: GOALS,
    concurrent_clients: CLIENTS,
    direct_read_connections: PG_CONNECTIONS,
    requests: REQUESTS,
    cold_requests: COLD_REQUESTS,
    scales,
    subscriber_list: subscribers,
    long_lists: longLists.results,
  };
  const B = 'stocks-dashboard';
  const figures = scales.flatMap((sc) => [
    ...(sc.failed
      ? []
      : [
          figure(B, `${sc.stocks} stocks, caches off: gateway p50`, sc.caches_off.gateway_ms.p50, 'ms', {
            ratio: { value: sc.caches_off.ratio.p50, better: 'lower' },
          }),
          figure(B, `${sc.stocks} stocks, caches on: gateway p50`, sc.caches_on.gateway_ms.p50, 'ms', {
            ratio: { value: sc.caches_on.ratio.p50, better: 'lower' },
          }),
        ]),
    figure(B, `${sc.stocks} stocks: render after data p50`, sc.chromium.render_after_data_ms.p50, 'ms', {
      goal: { max: GOALS.renderMs },
    }),
    figure(B, `${sc.stocks} stocks: filter keystroke p50`, sc.chromium.keystroke_ms.p50, 'ms', {
      goal: { max: GOALS.keystrokeMs },
    }),
  ]);
  if (subscribers)
    figures.push(
      figure(
        B,
        `${SUBSCRIBERS} subscribers: render after data p50`,
        subscribers.render_after_data_ms.p50,
        'ms',
        {
          goal: { max: GOALS.renderMs },
        },
      ),
    );
  if (subscribers)
    figures.push(
      figure(
        B,
        `${SUBSCRIBERS} subscribers: every page shown after data p50`,
        subscribers.whole_list_after_data_ms.p50,
        'ms',
      ),
    );
  figures.push(...longLists.figures);
  writeResult(B, result, figures);
} finally {
  await browser?.close().catch(() => {});
  await pg.end().catch(() => {});
  await stack.down();
  await infra.down({ envFile: ENV_FILE });
}
