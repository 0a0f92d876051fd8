// Reports (the reports issue's `make bench` figures), over one month of trades of a ticker and 5 peers
// (about 1,000,000 trades from the market stand-in, its trades a day scaled up):
//  1. loading them: the history job end to end (the adapter reading the stand-in over HTTP, then the
//     repository's COPY per stock-day and the day's sums), and the repository's load alone of the same rows
//     already read (COPY and sums), against one raw COPY of the same rows into an identical scratch table
//     (the physical limit of the trades alone, in the same run). Goal: load / COPY <= 1.5x.
//  2. generating the report (ticker + 5 peers, comparative activity and price overlay on, the ticker's
//     announcements of the month projected so its pre-release check runs) through Kafka, against one
//     GROUP BY over the same trades computing each broker's buy and sell volume and value (the floor of a
//     report computed from the trades: the rows read once; the report reads the sums kept at load time
//     instead). Goal: <= 1.3x.
//  3. in Chromium (Debian's), the public page /report/{guid} from navigation start to its broker charts
//     drawn (Highcharts: two chart SVGs and one with 20 bars). Goal: <= 1 s. Skipped, and said, while the
//     page draws no chart.
/* global document -- the waitForFunction callback below runs in the browser */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as infra from '../deploy/local/infra.mjs';
import { freshDatabase, sleep, stockIdOf, summary } from './lib.mjs';
import { figure, writeResult } from './figures.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (file) => require(path.join(ROOT, file));
const { asxTradingDaysBetween, isAsxTradingDay, sydneyDayOf, Topics } = dist('proto/dist/index.js');
const { mockAnnouncementsOfYear } = dist('services/announcements/dist/sources/mock.source.js');
const { actor, signFixtureActor, stockFixture } = require('@irp/proto/testing');
const { KafkaRequester } = require('@irp/platform');
const { startReportsService } = dist('services/reports/dist/main.js');
const { LoadMarketHistory } = dist('services/reports/dist/market/load-market-history.js');
const { MarketDataProvider } = dist('services/reports/dist/market/market-data.provider.js');
const { MarketRepository } = dist('services/reports/dist/market/market.repository.js');
const { mapLimited, tradeCopyLines, tradeToCopyOf } = dist('services/reports/dist/market/market-rules.js');
const { StockProjectionService } = dist('services/reports/dist/stocks/stock-projection.repository.js');
const { AnnouncementProjectionRepository } = dist(
  'services/reports/dist/announcements/announcement-projection.repository.js',
);
const { createGateway } = dist('gateway/dist/main.js');
const { Pool } = require(require.resolve('pg', { paths: [path.join(ROOT, 'services/platform')] }));
const { from: copyFrom } = require(
  require.resolve('pg-copy-streams', { paths: [path.join(ROOT, 'services/reports')] }),
);
const { chromium } = require('playwright-core');

const MONTH = process.env.BENCH_MONTH ?? '2026-10';
const TICKER = 'BHP';
const PEERS = ['CSL', 'CBA', 'WES', 'PLS', 'WOW'];
// The six codes' demo activity is about 86,000 trades in a month; 12 times that is the issue's ~1,000,000.
const TRADES_SCALE = Number(process.env.BENCH_TRADES_SCALE ?? 12);
const LOAD_ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const GOALS = { load: 1.5, report: 1.3, pageMs: 1000 };

const monthStart = `${MONTH}-01`;
const monthEnd = new Date(Date.UTC(Number(MONTH.slice(0, 4)), Number(MONTH.slice(5, 7)), 0))
  .toISOString()
  .slice(0, 10);
const days = asxTradingDaysBetween(monthStart, monthEnd);
const [first, last] = [days[0], days[days.length - 1]];
const stocks = [TICKER, ...PEERS].map((ticker, i) =>
  stockFixture({
    id: stockIdOf(i + 1),
    ticker,
    combinedTicker: `${ticker}:ASX`,
    companyName: `${ticker} Limited`,
    updatedAt: new Date().toISOString(),
  }),
);
const stockDays = stocks.flatMap((stock) => days.map((day) => ({ stock, day })));
const elapsed = async (work) => {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
};
const median = (samples) => summary(samples).p50;
const ratio = (a, b) => +(a / b).toFixed(2);

/**
 * Empties the trades (and the loaded days and their sums) and checkpoints, so every timed load starts from
 * the same state.
 */
async function emptied(pg, table) {
  await pg.query(`TRUNCATE ${table}`);
  if (table === 'reports.trades')
    await pg.query('TRUNCATE reports.trade_days, reports.day_stats, reports.broker_days');
  await pg.query('CHECKPOINT');
}

/** The physical limit: the same rows as COPY text made before the clock, one COPY on one connection. */
async function rawCopy(pg, chunks) {
  const client = await pg.connect();
  try {
    return await elapsed(() =>
      pipeline(
        Readable.from(chunks),
        client.query(
          copyFrom(
            `COPY bench.trades (stock_id, trade_day, seq, traded_at, price_e4, volume, buyer_broker, seller_broker, conditions) FROM STDIN`,
          ),
        ),
      ),
    );
  } finally {
    client.release();
  }
}

/**
 * Navigation start to the broker charts drawn, in the page's own clock (performance.now() counts from the
 * navigation's start): at least two Highcharts SVGs and one chart with 20 bars. Null when no chart shows
 * within `timeout`.
 */
async function timeToCharts(page, url, timeout) {
  await page.goto(url, { waitUntil: 'commit' });
  try {
    const at = await page.waitForFunction(
      () => {
        const charts = [...document.querySelectorAll('svg.highcharts-root')];
        // Bars by their series' class: Highcharts 12 draws them as paths, and a line's markers are points too.
        const bars = charts.some(
          (svg) =>
            svg.querySelectorAll(
              '.highcharts-bar-series .highcharts-point, .highcharts-column-series .highcharts-point',
            ).length >= 20,
        );
        return charts.length >= 2 && bars && performance.now();
      },
      undefined,
      { timeout, polling: 'raf' },
    );
    return at.jsonValue();
  } catch (error) {
    if (error.name === 'TimeoutError') return null;
    throw error;
  }
}

/**
 * The market stand-in in a process of its own, as the stack runs it: in the bench's process its making of
 * a million trades' JSON would share one thread with the service reading them.
 */
async function startMarketStandInProcess() {
  const free = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => free.once('listening', r));
  const port = free.address().port;
  await new Promise((r) => free.close(r));
  const child = spawn(process.execPath, [path.join(ROOT, 'standins/dist/market/main.js')], {
    env: {
      ...process.env,
      MARKET_STANDIN_PORT: String(port),
      MARKET_STANDIN_TRADES_SCALE: String(TRADES_SCALE),
      // The provider's limits are not what is measured (the job needs about 350 requests).
      MARKET_STANDIN_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const healthy = await fetch(`${url}/standin/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { url, close: () => child.kill('SIGTERM') };
    if (child.exitCode !== null || tries > 150) {
      child.kill('SIGTERM');
      throw new Error('the market stand-in did not start');
    }
    await sleep(100);
  }
}

const { env } = await infra.up({ envFile: ENV_FILE, database: 'irportal_bench' });
await freshDatabase(env.DATABASE_URL);
const standIn = await startMarketStandInProcess();
// Others' work on this machine shows in every figure: the load is recorded with them.
const loadAtStart = os.loadavg()[0];
let app;
let requester;
let gateway;
let browser;
const pg = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
try {
  // The history job loads the MARKET_HISTORY_DAYS before the latest day published by its `now` (T+3): the
  // third trading day after the month's last trading day makes that the month. Our side of the provider's
  // limits is set out of reach, like the stand-in's.
  let nowDay = last;
  for (let step = 0; step < 3;) {
    nowDay = new Date(Date.parse(`${nowDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    if (isAsxTradingDay(nowDay)) step += 1;
  }
  const now = new Date(`${nowDay}T02:00:00Z`);
  app = await startReportsService({
    ...process.env,
    KAFKA_BROKERS: env.KAFKA_BROKERS,
    DATABASE_URL: env.DATABASE_URL,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
    MARKET_DATA_BASE_URL: standIn.url,
    MARKET_DATA_PER_MINUTE: '1000000',
    MARKET_JOBS_DISABLED: 'true',
    MARKET_HISTORY_DAYS: String((Date.parse(last) - Date.parse(first)) / 86_400_000),
  });
  const projection = app.get(StockProjectionService);
  for (const stock of stocks) await projection.receive(stock);
  // The ticker's announcements of the month (the ASX stand-in's), as announcement.detected would have
  // projected them: the report lists them by day and checks the sessions before each price-sensitive one
  // for pre-release buying, as a real report of the ticker does.
  const announcements = mockAnnouncementsOfYear(
    TICKER,
    Number(MONTH.slice(0, 4)),
    new Date(`${monthEnd}T23:59:59Z`),
  )
    .map((a) => ({ ...a, date: new Date(a.releasedAt).toISOString() }))
    .filter((a) => sydneyDayOf(new Date(a.date)).startsWith(MONTH));
  for (const a of announcements)
    await app.get(AnnouncementProjectionRepository).upsert({
      id: randomUUID(),
      stockId: stocks[0].id,
      date: a.date,
      headline: a.headline,
      priceSensitive: a.priceSensitive,
    });
  const market = app.get(MarketRepository);
  const concurrency = Number(process.env.MARKET_LOAD_CONCURRENCY ?? 3);

  // 1. Loading. End to end: the job as it runs (read and store each stock-day, 3 at once).
  const job = await elapsed(() => app.get(LoadMarketHistory).run(now));
  if (!job.value.success || job.value.loaded !== stockDays.length)
    throw new Error(`the history job: ${JSON.stringify(job.value)}`);
  const trades = job.value.trades;
  // The same rows read again through the adapter (the read alone), kept for the timed loads.
  const client = app.get(MarketDataProvider).use();
  const read = await elapsed(() =>
    mapLimited(stockDays, concurrency, async ({ stock, day }) => ({
      stock,
      day,
      rows: (await client.trades(stock.ticker, day)).map(tradeToCopyOf),
    })),
  );
  const fetched = read.value.map((r) => {
    if (!r.ok) throw r.error;
    return r.value;
  });
  const chunks = fetched.flatMap(({ stock, day, rows }) => [...tradeCopyLines(stock.id, day, rows)]);
  const copyBytes = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
  await pg.query('CREATE SCHEMA IF NOT EXISTS bench');
  await pg.query('CREATE TABLE bench.trades (LIKE reports.trades INCLUDING ALL)');
  const loadMs = [];
  const copyMs = [];
  for (let round = 0; round < LOAD_ROUNDS; round++) {
    await emptied(pg, 'bench.trades');
    copyMs.push((await rawCopy(pg, chunks)).ms);
    // The repository's load as the job calls it (a transaction per stock-day, 3 at once), rows in hand.
    await emptied(pg, 'reports.trades');
    const load = await elapsed(() =>
      mapLimited(fetched, concurrency, ({ stock, day, rows }) => market.replaceDay(stock.id, day, rows)),
    );
    const failed = load.value.find((r) => !r.ok);
    if (failed) throw failed.error;
    loadMs.push(load.ms);
  }
  const { rows: counted } = await pg.query(
    `SELECT (SELECT count(*)::int FROM reports.trades) AS loaded, (SELECT count(*)::int FROM bench.trades) AS copied`,
  );
  if (counted[0].loaded !== trades || counted[0].copied !== trades)
    throw new Error(`rows: ${JSON.stringify(counted[0])}, the job loaded ${trades}`);
  await pg.query('DROP SCHEMA bench CASCADE');
  for (const table of ['trades', 'day_stats', 'broker_days'])
    await pg.query(`VACUUM ANALYZE reports.${table}`);

  // 2. The report through Kafka, against the one-pass GROUP BY over the same rows.
  requester = new KafkaRequester({
    brokers: env.KAFKA_BROKERS.split(','),
    service: 'bench-reports',
    instanceId: '1',
    topics: [Topics.ReportsGenerate],
    timeoutMs: 120_000,
    // The fixture actor signed for each request, as the gateway signs a session's (issue 34): unsigned for
    // the message, the reports service refuses it.
    signActor: (topic, payload) => signFixtureActor(topic, payload),
  });
  await requester.connect();
  const generate = () =>
    requester.request(Topics.ReportsGenerate, {
      actor: actor({ username: 'admin', roles: ['Admin'] }),
      combinedTicker: `${TICKER}:ASX`,
      startDate: monthStart,
      endDate: monthEnd,
      peers: PEERS,
      comparativeTradingActivity: true,
      priceOverlay: true,
      allowSearch: true,
    });
  const floor = () =>
    pg.query(
      `SELECT stock_id, buyer_broker, seller_broker, count(*) AS trades, sum(volume) AS volume,
              sum(price_e4 * volume) AS value_e4
         FROM reports.trades
        WHERE stock_id = ANY($1) AND trade_day BETWEEN $2 AND $3
        GROUP BY GROUPING SETS ((stock_id, buyer_broker), (stock_id, seller_broker))`,
      [stocks.map((s) => s.id), monthStart, monthEnd],
    );
  const reportMs = [];
  const floorMs = [];
  let report;
  for (let run = 0; run <= RUNS; run++) {
    const r = await elapsed(generate);
    const f = await elapsed(floor);
    // Run 0 warms the caches, the plans and the connections.
    if (run === 0) continue;
    report = r.value;
    reportMs.push(r.ms);
    floorMs.push(f.ms);
  }
  const reportTrades = report.brokerActivityViewModels.reduce(
    (n, b) => n + b.brokerShareAnalysis.numTrades,
    0,
  );
  if (reportTrades !== trades) throw new Error(`the report counts ${reportTrades} trades of ${trades}`);

  // 3. The public page in Chromium, served by the gateway from web/dist.
  gateway = await createGateway({
    ...process.env,
    KAFKA_BROKERS: env.KAFKA_BROKERS,
    DATABASE_URL: env.DATABASE_URL,
    PORT: process.env.GATEWAY_PORT,
    WEB_DIST: path.join(ROOT, 'web', 'dist'),
    LOG_LEVEL: 'warn',
  });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const url = `http://127.0.0.1:${process.env.GATEWAY_PORT}/report/${report.guid}`;
  const pageMs = [];
  let pageSkipped = null;
  for (let run = 0; run <= RUNS; run++) {
    const ms = await timeToCharts(page, url, run === 0 ? 10_000 : 30_000);
    if (ms === null) {
      pageSkipped = `no broker charts (svg.highcharts-root with 20 bars) on /report/{guid} within ${run === 0 ? 10 : 30} s`;
      break;
    }
    // Run 0 warms the browser's cache.
    if (run > 0) pageMs.push(ms);
  }

  const load = {
    job_end_to_end: job.ms,
    read_alone: read.ms,
    load_alone: median(loadMs),
    copy: median(copyMs),
  };
  const result = {
    benchmark: 'reports',
    at: new Date().toISOString(),
    load_average_1m: { start: +loadAtStart.toFixed(1), end: +os.loadavg()[0].toFixed(1) },
    month: MONTH,
    trading_days: days.length,
    stocks: stocks.map((s) => s.ticker),
    trades,
    ticker_announcements: announcements.length,
    price_sensitive: announcements.filter((a) => a.priceSensitive).length,
    copy_text_mb: +(copyBytes / 1e6).toFixed(1),
    load_ms: {
      job_end_to_end: Math.round(load.job_end_to_end),
      read_through_adapter: Math.round(load.read_alone),
      repository_load_rounds: loadMs.map(Math.round),
      raw_copy_rounds: copyMs.map(Math.round),
      repository_load_p50: Math.round(load.load_alone),
      raw_copy_p50: Math.round(load.copy),
    },
    load_ratio: ratio(load.load_alone, load.copy),
    load_end_to_end_ratio: ratio(load.job_end_to_end, load.copy),
    report_ms: summary(reportMs),
    raw_group_by_ms: summary(floorMs),
    report_ratio_p50: ratio(median(reportMs), median(floorMs)),
    page_time_to_charts_ms: pageSkipped ? { skipped: pageSkipped } : summary(pageMs),
    goals: { load_ratio: GOALS.load, report_ratio: GOALS.report, page_ms: GOALS.pageMs },
  };
  result.goals_met = {
    load: result.load_ratio <= GOALS.load,
    report: result.report_ratio_p50 <= GOALS.report,
    page: pageSkipped ? null : result.page_time_to_charts_ms.p50 <= GOALS.pageMs,
  };
  const B = 'reports';
  writeResult(B, result, [
    figure(B, 'repository load p50 (COPY and sums)', load.load_alone / 1000, 's', {
      ratio: { value: load.load_alone / load.copy, better: 'lower' },
    }),
    figure(B, 'load ÷ raw COPY', load.load_alone / load.copy, '×', { goal: { max: GOALS.load } }),
    figure(B, 'report p50 through Kafka', median(reportMs), 'ms', {
      ratio: { value: median(reportMs) / median(floorMs), better: 'lower' },
    }),
    figure(B, 'report ÷ raw GROUP BY', median(reportMs) / median(floorMs), '×', {
      goal: { max: GOALS.report },
    }),
    ...(pageSkipped
      ? []
      : [
          figure(B, 'public report page to charts p50', result.page_time_to_charts_ms.p50, 'ms', {
            goal: { max: GOALS.pageMs },
          }),
        ]),
  ]);
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`${trades} trades of ${result.stocks.join(', ')} over ${days.length} trading days of ${MONTH}`);
  console.log(
    `load: job end to end ${s(load.job_end_to_end)} (reading through the adapter alone ${s(load.read_alone)}); repository load of rows in hand p50 ${s(load.load_alone)}; raw COPY p50 ${s(load.copy)}; ratio ${result.load_ratio}x (goal <= ${GOALS.load}x), end to end ${result.load_end_to_end_ratio}x`,
  );
  console.log(
    `report through Kafka p50 ${result.report_ms.p50} ms; raw GROUP BY p50 ${result.raw_group_by_ms.p50} ms; ratio ${result.report_ratio_p50}x (goal <= ${GOALS.report}x)`,
  );
  console.log(
    pageSkipped
      ? `page: skipped, ${pageSkipped} (the page is not built in this tree)`
      : `page: time to charts p50 ${result.page_time_to_charts_ms.p50} ms (goal <= ${GOALS.pageMs} ms)`,
  );
} finally {
  await browser?.close().catch(() => {});
  await gateway?.close().catch(() => {});
  await requester?.close().catch(() => {});
  await app?.close().catch(() => {});
  await pg.end().catch(() => {});
  await standIn.close();
  await infra.down({ envFile: ENV_FILE });
}
