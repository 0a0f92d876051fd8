import { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { KafkaRequester } from '@irp/platform';
import {
  captureLogs,
  createTestRequester,
  dropSchema,
  expectAppError,
  loggedUnderReference,
  outboxEvents,
  rawProducer,
  serviceTestEnv,
  waitUntil,
} from '@irp/platform/testing';
import {
  Actor,
  Announcement,
  asxTradingDaysBetween,
  EventOf,
  previousAsxTradingDay,
  sydneyDayOf,
  Topics,
} from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { startMarketStandIn } from '@irp/standins/market';
import type { StandInServer } from '@irp/standins/kit';
import type { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { MarketDataProvider } from '../src/market/market-data.provider';
import { MarketRepository } from '../src/market/market.repository';
import { TradesNotPublishedError, UnknownSecurityError } from '../src/market/market-data-client';
import { publishedTradeDay, TradeToCopy, tradeToCopyOf } from '../src/market/market-rules';
import { BrokerAggregate, brokerShareOf, e4ToDollars, round, TOP_BROKERS } from '../src/reports/report-rules';
import { ReportsRepository } from '../src/reports/reports.repository';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import { startReportsService } from '../src/main';
import { PruneRegenerations } from '../src/reports/prune-regenerations';
import { asxStock } from './test-stocks';

jest.setTimeout(300_000);

/**
 * The reports service on the real broker and database against the market-data stand-in: the watchlist and
 * prior-day jobs (idempotent re-runs, the stocks they leave out), a provider outage (retried, remembered,
 * reported once, said by the report), the announcement projection from `announcement.detected`, and report
 * figures checked against hand-computed values on a small fixed trade set (net values, traded percent,
 * the top-20 cut, comparative activity, trade analysis, peer performance), with its refusals.
 */
describe('reports service on the real broker and database', () => {
  let app: INestApplication;
  let db: DataSource;
  let requester: KafkaRequester;
  let standIn: StandInServer;
  // The stand-in's clock runs this far behind ours when a test wants a day overdue by our clock but not
  // published by the provider's.
  let standInBehindMs = 0;
  let producer: Producer;
  const admin = actor({ username: 'admin', roles: ['Admin'] });
  const run = Date.now().toString(36).slice(-4).toUpperCase();

  const stock = asxStock;
  // Listed by the provider (simulated market), two in the watchlist.
  const watched = stock(`WA${run}`);
  const watched2 = stock(`WB${run}`);
  const disabled = stock(`WD${run}`, { disableMarketData: true });
  const archived = stock(`WR${run}`, { archived: true });
  // Fixed trade sets (not in the provider's watchlist: archived so the jobs leave them alone).
  const target = stock(`FX${run}`, { archived: true, companyName: 'Fixed Target Ltd' });
  const peer = stock(`FY${run}`, { archived: true, companyName: 'Fixed Peer Ltd' });
  const many = stock(`FZ${run}`, { archived: true });
  // The stand-in's trades of a listed stock, loaded under a stock of their own (archived, as above).
  const summed = stock(`FS${run}`, { archived: true });

  const D1 = '2026-03-02';
  const D2 = '2026-03-03';
  const trade = (
    seq: number,
    price: number,
    volume: number,
    buyer: number,
    seller: number,
    time = '00:30',
  ) => ({
    seq,
    tradedAt: `${D1}T${time}:00.000Z`,
    priceE4: Math.round(price * 10_000),
    volume,
    buyerBroker: buyer,
    sellerBroker: seller,
    conditions: '',
  });

  const generate = (
    fields: Partial<{
      actor: Actor;
      combinedTicker: string;
      startDate: string;
      endDate: string;
      peers: string[];
      comparativeTradingActivity: boolean;
      allowSearch: boolean;
    }>,
  ) =>
    requester.request(
      Topics.ReportsGenerate,
      {
        actor: admin,
        combinedTicker: target.combinedTicker,
        startDate: D1,
        endDate: D2,
        peers: [],
        comparativeTradingActivity: false,
        priceOverlay: false,
        allowSearch: true,
        ...fields,
      },
      60_000,
    );

  beforeAll(async () => {
    await dropSchema('reports');
    standIn = await startMarketStandIn({ port: 0, now: () => new Date(Date.now() - standInBehindMs) });
    app = await startReportsService({
      ...serviceTestEnv('reports'),
      MARKET_DATA_BASE_URL: standIn.url,
      MARKET_JOBS_DISABLED: 'true',
      MARKET_HISTORY_DAYS: '0',
      MARKET_DATA_MAX_ATTEMPTS: '2',
      MARKET_DATA_MAX_RETRY_AFTER_MS: '2000',
      MARKET_DATA_TIMEOUT_MS: '5000',
      REPORT_REGENERATIONS_PER_REPORT: '3',
    });
    db = app.get(DataSource);
    const projection = app.get(StockProjectionService);
    for (const s of [watched, watched2, disabled, archived, target, peer, many, summed])
      await projection.receive(s);
    const market = app.get(MarketRepository);
    await market.saveBrokers([
      { id: 1, name: 'Alpha Securities' },
      { id: 2, name: 'Beta Brokers' },
      { id: 3, name: 'Gamma Capital' },
    ]);
    // The target: three trades over two days between brokers 1, 2 and 3.
    await market.replaceDay(target.id, D1, [trade(1, 1.0, 1000, 1, 2), trade(2, 1.1, 500, 2, 3, '01:00')]);
    await market.replaceDay(target.id, D2, [
      { ...trade(1, 1.2, 2000, 1, 3), tradedAt: `${D2}T00:30:00.000Z` },
    ]);
    // The peer: 100 shares a day at $2.00 then $2.10.
    await market.replaceDay(peer.id, D1, [trade(1, 2.0, 100, 4, 5)]);
    await market.replaceDay(peer.id, D2, [{ ...trade(1, 2.1, 100, 4, 5), tradedAt: `${D2}T00:30:00.000Z` }]);
    // 26 brokers (ids the provider's list does not use): 25 buyers of k x 100 shares at $1 (k = 1..25), all
    // from one seller.
    await market.replaceDay(
      many.id,
      D1,
      Array.from({ length: 25 }, (_, i) => trade(i + 1, 1.0, (i + 1) * 100, 1000 + i + 1, 2000)),
    );
    await market.replaceDay(many.id, D2, []);
    producer = await rawProducer();
    requester = await createTestRequester(
      [
        Topics.ReportsPing,
        Topics.ReportsSyncWatchlist,
        Topics.ReportsRunPriorDay,
        Topics.ReportsGenerate,
        Topics.ReportsList,
        Topics.ReportsGet,
        Topics.ReportsRegenerate,
        Topics.ReportsSaveMarketData,
        Topics.ReportsCurrentMarketData,
        Topics.ReportsChartData,
        Topics.ReportsUpdateChartData,
      ],
      60_000,
    );
  });

  afterAll(async () => {
    await requester?.close();
    await producer?.disconnect();
    await app?.close();
    await standIn?.close();
  });

  it('answers its ping through Kafka and reports healthy on /health', async () => {
    expect((await requester.request(Topics.ReportsPing, {})).service).toBe('reports');
    const { port } = app.getHttpServer().address();
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  describe('jobs', () => {
    it('syncWatchlist reads the quotes of every stock without disableMarketData (not archived); a re-run overwrites', async () => {
      const first = await requester.request(Topics.ReportsSyncWatchlist, { actor: admin });
      expect(first).toMatchObject({ success: true, stocks: 2, updated: 2, failed: [], errorMessage: null });
      const quote = await requester.request(Topics.ReportsCurrentMarketData, {
        combinedTicker: watched.combinedTicker,
      });
      expect(quote.marketData?.last).toBeGreaterThan(0);
      expect(quote.marketData?.bid).toBeLessThan(quote.marketData!.ask!);
      const again = await requester.request(Topics.ReportsSyncWatchlist, { actor: admin });
      expect(again.updated).toBe(2);
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM reports.quotes`);
      expect(count).toBe(2);
      const none = await requester.request(Topics.ReportsCurrentMarketData, {
        combinedTicker: disabled.combinedTicker,
      });
      expect(none.marketData).toBeNull();
    });

    it("runPriorDay loads the latest published day's trades (T+3) once: a re-run skips the loaded stock-days", async () => {
      const day = publishedTradeDay(new Date(), 3);
      const first = await requester.request(Topics.ReportsRunPriorDay, { actor: admin }, 60_000);
      expect(first).toMatchObject({ success: true, day, stocks: 2, loaded: 2, skipped: 0, unpublished: 0 });
      expect(first.trades).toBeGreaterThan(10);
      const [{ count }] = await db.query(
        `SELECT count(*)::int AS count FROM reports.trades WHERE stock_id = ANY($1) AND trade_day = $2`,
        [[watched.id, watched2.id], day],
      );
      expect(count).toBe(first.trades);
      const again = await requester.request(Topics.ReportsRunPriorDay, { actor: admin }, 60_000);
      expect(again).toMatchObject({ success: true, loaded: 0, skipped: 2, trades: 0 });
      const [{ count: after }] = await db.query(
        `SELECT count(*)::int AS count FROM reports.trades WHERE stock_id = ANY($1) AND trade_day = $2`,
        [[watched.id, watched2.id], day],
      );
      expect(after).toBe(count);
      // The same day again replaces its rows (the primary key would refuse doubles).
      await app.get(MarketRepository).replaceDay(watched.id, day, []);
      const [{ count: emptied }] = await db.query(
        `SELECT count(*)::int AS count FROM reports.trades WHERE stock_id = $1 AND trade_day = $2`,
        [watched.id, day],
      );
      expect(emptied).toBe(0);
      for (const table of ['day_stats', 'broker_days']) {
        const [{ count: sums }] = await db.query(
          `SELECT count(*)::int AS count FROM reports.${table} WHERE stock_id = $1 AND trade_day = $2`,
          [watched.id, day],
        );
        expect(sums).toBe(0);
      }
    });

    it('a provider outage is retried, remembered, reported once, and a report over the day says the data is missing', async () => {
      const day = '2026-02-16';
      standIn.faults.set({ kind: 'fail', route: 'trades', status: 503, times: 1000 });
      const logs = captureLogs();
      try {
        const before = standIn.requests('trades');
        const failed = await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
        logs.stop();
        expect(failed.success).toBe(false);
        expect(failed.failed.map((f) => f.ticker).sort()).toEqual(
          [watched.combinedTicker, watched2.combinedTicker].sort(),
        );
        // The provider's own words (its error body) are not echoed to staff: a reference instead, and the
        // detail in the structured log under it.
        for (const { errorMessage } of failed.failed) {
          expect(errorMessage).toMatch(/^The market-data provider answered 503 \(reference [0-9a-f]{8}\)$/);
          expect(loggedUnderReference(logs, errorMessage)).toMatchObject({
            vendor: 'reports:market-data',
            status: 503,
            vendorMessage: 'failing on purpose (/standin/faults)',
          });
        }
        expect(JSON.stringify(failed)).not.toContain('failing on purpose');
        expect(failed.errorMessage).toMatch(/could not serve 2 stock-day/);
        // Two attempts per stock-day (MARKET_DATA_MAX_ATTEMPTS).
        expect(standIn.requests('trades') - before).toBe(4);
        const gaps = await db.query(
          `SELECT stock_id, reported FROM reports.market_gaps WHERE day = $1 AND kind = 'trades'`,
          [day],
        );
        expect(gaps).toHaveLength(2);
        expect(gaps.every((g: { reported: boolean }) => g.reported)).toBe(true);
        const events = await outboxEvents('reports', Topics.MarketDataFailed);
        expect(events).toHaveLength(1);
        expect(events[0]!.payload).toMatchObject({
          job: 'prior-day',
          day,
          message: expect.stringMatching(/503/),
        });
        // Failing again reports nothing new.
        await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
        expect(await outboxEvents('reports', Topics.MarketDataFailed)).toHaveLength(1);
      } finally {
        logs.stop();
        standIn.faults.clear();
      }
      // Load the surrounding days, then the report over the week says which day is missing, not zeros.
      await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day: '2026-02-17' }, 60_000);
      const report = await generate({
        combinedTicker: watched.combinedTicker,
        startDate: day,
        endDate: '2026-02-17',
      });
      const missing = report.tradeAnalysis.find((d) => d.day === day)!;
      expect(missing).toMatchObject({ missingData: true, numTrades: null, trVal: null });
      expect(report.reportPeriod.missingDays).toEqual([
        { ticker: watched.combinedTicker, day, reason: expect.stringMatching(/503/) },
      ]);
      expect(report.tradeAnalysis.find((d) => d.day === '2026-02-17')!.missingData).toBe(false);
      // Loaded later: the gap is gone.
      const ok = await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
      expect(ok).toMatchObject({ success: true, loaded: 2 });
      expect(await db.query(`SELECT * FROM reports.market_gaps WHERE day = $1`, [day])).toHaveLength(0);
    });

    it('the adapter tells a day not published yet from a code the provider does not list (both 404)', async () => {
      const client = app.get(MarketDataProvider).use();
      const young = previousAsxTradingDay(sydneyDayOf(new Date()));
      await expect(client.trades(watched.ticker, young)).rejects.toBeInstanceOf(TradesNotPublishedError);
      await expect(client.trades(`NOQ${run}`, publishedTradeDay(new Date(), 3))).rejects.toBeInstanceOf(
        UnknownSecurityError,
      );
    });

    it('a day inside the publication lag is asked again later: no gap, no mail', async () => {
      const day = previousAsxTradingDay(sydneyDayOf(new Date()));
      const mailed = (await outboxEvents('reports', Topics.MarketDataFailed)).length;
      const result = await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
      // Said so: the day is not loaded, and not a failure either.
      expect(result).toMatchObject({
        success: true,
        day,
        loaded: 0,
        unpublished: 2,
        failed: [],
        errorMessage: null,
      });
      expect(await db.query(`SELECT * FROM reports.market_gaps WHERE day = $1`, [day])).toHaveLength(0);
      expect(await outboxEvents('reports', Topics.MarketDataFailed)).toHaveLength(mailed);
    });

    it('a day still unpublished past its deadline (lag and grace) is one gap per stock-day, mailed once', async () => {
      // Six trading days back: past the lag (3) and the grace (2) by our clock; the provider's clock is a
      // month behind, so it has not published the day.
      const day = publishedTradeDay(new Date(), 6);
      const mailed = (await outboxEvents('reports', Topics.MarketDataFailed)).length;
      standInBehindMs = 30 * 86_400_000;
      try {
        const failed = await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
        expect(failed.success).toBe(false);
        expect(failed.failed.map((f) => f.ticker).sort()).toEqual(
          [watched.combinedTicker, watched2.combinedTicker].sort(),
        );
        const gaps = await db.query(
          `SELECT stock_id, reason, reported FROM reports.market_gaps WHERE day = $1 AND kind = 'trades'`,
          [day],
        );
        expect(gaps).toHaveLength(2);
        expect(gaps.every((g: { reported: boolean }) => g.reported)).toBe(true);
        expect(gaps[0].reason).toMatch(/has not published the trades/);
        const events = await outboxEvents('reports', Topics.MarketDataFailed);
        expect(events).toHaveLength(mailed + 1);
        expect(events.map((e) => e.payload).filter((p) => (p as { day: string }).day === day)).toEqual([
          expect.objectContaining({ job: 'prior-day', day, message: expect.stringMatching(/not published/) }),
        ]);
        // Still missing at the next run: nothing new is mailed.
        await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
        expect(await outboxEvents('reports', Topics.MarketDataFailed)).toHaveLength(mailed + 1);
      } finally {
        standInBehindMs = 0;
      }
      // Published at last: loaded, and the gap is gone.
      const ok = await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
      expect(ok).toMatchObject({ success: true, loaded: 2 });
      expect(await db.query(`SELECT * FROM reports.market_gaps WHERE day = $1`, [day])).toHaveLength(0);
    });

    it('a watchlist code the provider does not list stays unknown: failed, but no gap and no mail', async () => {
      const unlisted = stock(`NOQ${run}`);
      const projection = app.get(StockProjectionService);
      await projection.receive(unlisted);
      const day = publishedTradeDay(new Date(), 8);
      const mailed = (await outboxEvents('reports', Topics.MarketDataFailed)).length;
      try {
        const result = await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
        expect(result.success).toBe(false);
        expect(result.failed).toEqual([
          { ticker: unlisted.combinedTicker, errorMessage: expect.stringMatching(/does not list/) },
        ]);
        expect(result).toMatchObject({ loaded: 2, errorMessage: null });
        expect(await db.query(`SELECT * FROM reports.market_gaps WHERE day = $1`, [day])).toHaveLength(0);
        expect(await outboxEvents('reports', Topics.MarketDataFailed)).toHaveLength(mailed);
      } finally {
        await projection.receive({
          ...unlisted,
          archived: true,
          updatedAt: new Date(Date.parse(unlisted.updatedAt) + 1000).toISOString(),
        });
      }
    });

    it('updateChartData stores the daily OHLCV of a year; getChartData lists it newest first', async () => {
      const { rowCount } = await requester.request(
        Topics.ReportsUpdateChartData,
        { actor: admin, stockId: watched.id },
        60_000,
      );
      expect(rowCount).toBeGreaterThan(200);
      const { rows } = await requester.request(Topics.ReportsChartData, { stockId: watched.id });
      expect(rows).toHaveLength(rowCount);
      expect(rows[0]!.date > rows[1]!.date).toBe(true);
      expect(rows[0]!.high).toBeGreaterThanOrEqual(rows[0]!.low);
      const again = await requester.request(
        Topics.ReportsUpdateChartData,
        { actor: admin, stockId: watched.id },
        60_000,
      );
      expect(again.rowCount).toBe(rowCount);
    });

    it('saveMarketData writes the given fields and the time; others stay', async () => {
      const saved = await requester.request(Topics.ReportsSaveMarketData, {
        actor: admin,
        combinedTicker: watched.combinedTicker,
        fields: { ask: 1.5, marketCap: 123_000_000, movement: null },
      });
      expect(saved).toMatchObject({ ask: 1.5, marketCap: 123_000_000, movement: null });
      expect(saved.last).toBeGreaterThan(0);
      expect(Date.now() - Date.parse(saved.updated!)).toBeLessThan(60_000);
    });

    it("re-checks the signed actor's roles on every change: a signed actor without the role is refused, nothing changes", async () => {
      // Signed with the gateway's secret, but without the role the gateway's route guard asks for.
      const client = actor({ username: 'report-client', stockRoles: { [archived.id]: ['ViewConfig'] } });
      const runner = actor({ username: 'report-runner', roles: ['RunReports'] });
      const before = await requester.request(Topics.ReportsCurrentMarketData, {
        combinedTicker: archived.combinedTicker,
      });
      const reportsOfTarget = async () =>
        (await requester.request(Topics.ReportsList, { combinedTicker: target.combinedTicker })).reports;
      const reportsBefore = await reportsOfTarget();
      await expectAppError(
        requester.request(Topics.ReportsSaveMarketData, {
          actor: runner,
          combinedTicker: archived.combinedTicker,
          fields: { last: 999 },
        }),
        'FORBIDDEN',
        'You need the Admin role to save market data',
      );
      await expectAppError(
        requester.request(Topics.ReportsUpdateChartData, { actor: client, stockId: archived.id }),
        'FORBIDDEN',
        'You need the Admin role to update chart data',
      );
      await expectAppError(
        requester.request(Topics.ReportsSyncWatchlist, { actor: runner }),
        'FORBIDDEN',
        'You need the Admin role to sync the watchlist',
      );
      await expectAppError(
        requester.request(Topics.ReportsRunPriorDay, { actor: client, day: D1 }),
        'FORBIDDEN',
        'You need the Admin role to load the prior day',
      );
      await expectAppError(
        generate({ actor: client }),
        'FORBIDDEN',
        'You need the RunReports role to generate a report',
      );
      expect(
        await requester.request(Topics.ReportsCurrentMarketData, { combinedTicker: archived.combinedTicker }),
      ).toEqual(before);
      expect(await reportsOfTarget()).toEqual(reportsBefore);
    });
  });

  describe('report figures on a fixed trade set', () => {
    it('broker share analysis: values, net values, prices, traded percent, order by value', async () => {
      const report = await generate({});
      expect(report.guid).toMatch(/^[0-9a-f]{32}$/);
      const own = report.brokerActivityViewModels[0]!.brokerShareAnalysis;
      expect(own).toMatchObject({
        ticker: target.combinedTicker,
        totalValue: 3950,
        totalVolume: 3500,
        numTrades: 3,
        brokerCount: 3,
      });
      expect(own.brokers).toEqual([
        {
          name: 'Alpha Securities',
          totVal: 3400,
          netVal: 3400,
          netVol: 3000,
          sells: 0,
          sellVol: 0,
          sellPrice: 0,
          sellValue: 0,
          buys: 2,
          buyVol: 3000,
          buyPrice: 1.1333,
          buyValue: 3400,
          trades: 2,
          tradedPercent: 42.86,
        },
        {
          name: 'Gamma Capital',
          totVal: 2950,
          netVal: -2950,
          netVol: -2500,
          sells: 2,
          sellVol: 2500,
          sellPrice: 1.18,
          sellValue: 2950,
          buys: 0,
          buyVol: 0,
          buyPrice: 0,
          buyValue: 0,
          trades: 2,
          tradedPercent: 35.71,
        },
        {
          name: 'Beta Brokers',
          totVal: 1550,
          netVal: -450,
          netVol: -500,
          sells: 1,
          sellVol: 1000,
          sellPrice: 1,
          sellValue: 1000,
          buys: 1,
          buyVol: 500,
          buyPrice: 1.1,
          buyValue: 550,
          trades: 2,
          tradedPercent: 21.43,
        },
      ]);
      expect(report.activitySummary).toMatchObject({
        numTrades: 3,
        totalVolume: 3500,
        totalValue: 3950,
        open: 1,
        close: 1.2,
        high: 1.2,
        low: 1,
        changePercent: 20,
        vwap: 1.1286,
      });
      expect(report.reportPeriod).toMatchObject({
        startDate: D1,
        endDate: D2,
        tradingDays: 2,
        daysWithData: 2,
        missingDays: [],
      });
      expect(report.tradeAnalysis).toEqual([
        {
          day: D1,
          numTrades: 2,
          trVal: 1550,
          avgSize: 750,
          high: 1.1,
          low: 1,
          close: 1.1,
          announcements: [],
          missingData: false,
        },
        {
          day: D2,
          numTrades: 1,
          trVal: 2400,
          avgSize: 2000,
          high: 1.2,
          low: 1.2,
          close: 1.2,
          announcements: [],
          missingData: false,
        },
      ]);
      expect(report.comparativeTradingActivity).toBeNull();
    });

    it('peers: their broker activity, comparative trading activity, price comparison and performance', async () => {
      const report = await generate({ peers: [peer.ticker], comparativeTradingActivity: true });
      expect(report.peers).toEqual([peer.combinedTicker]);
      expect(report.brokerActivityViewModels.map((b) => b.brokerShareAnalysis.ticker)).toEqual([
        target.combinedTicker,
        peer.combinedTicker,
      ]);
      expect(
        report.brokerActivityViewModels[1]!.brokerShareAnalysis.brokers.map((b) => [
          b.name,
          b.totVal,
          b.tradedPercent,
        ]),
      ).toEqual([
        ['Broker 4', 410, 50],
        ['Broker 5', 410, 50],
      ]);
      expect(report.comparativeTradingActivity).toEqual({
        items: [
          { name: 'Fixed Target Ltd', percent: 90.6, meta: { ticker: target.combinedTicker, value: 3950 } },
          { name: 'Fixed Peer Ltd', percent: 9.4, meta: { ticker: peer.combinedTicker, value: 410 } },
        ],
        targetValue: 3950,
        totalPeerValue: 410,
      });
      expect(report.peerPerformance).toEqual([
        { name: target.combinedTicker, percentage: 20 },
        { name: peer.combinedTicker, percentage: 5 },
      ]);
      expect(report.priceComparison.series[1]).toEqual({
        ticker: peer.combinedTicker,
        points: [
          { day: D1, close: 2, changePercent: 0 },
          { day: D2, close: 2.1, changePercent: 5 },
        ],
      });
    });

    it('top 20 brokers by value: the 21st and later are cut, the count says how many traded', async () => {
      const report = await generate({ combinedTicker: many.combinedTicker });
      const analysis = report.brokerActivityViewModels[0]!.brokerShareAnalysis;
      expect(analysis.brokerCount).toBe(26);
      expect(analysis.brokers).toHaveLength(20);
      expect(analysis.brokers[0]).toMatchObject({
        name: 'Broker 2000',
        totVal: 32_500,
        netVal: -32_500,
        sells: 25,
        tradedPercent: 50,
      });
      expect(analysis.brokers.slice(1).map((b) => b.name)).toEqual(
        Array.from({ length: 19 }, (_, i) => `Broker ${1025 - i}`),
      );
      expect(analysis.brokers[19]).toMatchObject({
        totVal: 700,
        tradedPercent: round2((700 / (2 * 32_500)) * 100),
      });
    });

    it("the trade analysis lists the day's announcements from announcement.detected", async () => {
      const announcement = {
        id: randomUUID(),
        stockId: target.id,
        sendGuid: randomUUID(),
        headline: 'Quarterly Activities Report',
        headlineOriginal: null,
        date: `${D2}T22:30:00.000Z`.replace(D2, '2026-03-01'), // 9:30 AM 2 March in Sydney
        priceSensitive: true,
        remotePath: '',
        localPath: null,
        pdfUrl: null,
        fileProblem: null,
        videoUrl: '',
        videoDescription: '',
        thumbnailPageNum: null,
        sent: false,
        sendHistory: [],
        sendRequestedAt: null,
        numComments: 0,
        hits: 0,
        alertLatencyMs: null,
        deletedOn: null,
        origin: 'poll',
        autoSend: null,
        createdAt: new Date().toISOString(),
      } satisfies Announcement;
      const event: EventOf<typeof Topics.AnnouncementDetected> = {
        stockId: target.id,
        combinedTicker: target.combinedTicker,
        origin: 'poll',
        announcement,
        releasedAt: announcement.date,
        detectedAt: new Date().toISOString(),
      };
      await producer.send({
        topic: Topics.AnnouncementDetected,
        messages: [{ key: target.id, value: JSON.stringify(event) }],
      });
      await waitUntil(
        'announcement projected',
        async () =>
          (await db.query(`SELECT 1 FROM reports.announcements WHERE id = $1`, [announcement.id])).length ===
          1,
      );
      const report = await generate({});
      expect(report.tradeAnalysis[0]!.announcements).toEqual([
        { date: announcement.date, headline: 'Quarterly Activities Report', priceSensitive: true },
      ]);
      expect(report.tradeAnalysis[1]!.announcements).toEqual([]);
    });

    it('a peer whose market data is disabled is said once, not listed as a missing day each', async () => {
      const report = await generate({ peers: [disabled.combinedTicker] });
      expect(report.reportPeriod).toMatchObject({
        missingDays: [],
        marketDataDisabled: [disabled.combinedTicker],
        text: `${D1} to ${D2}: 2 trading days; market data disabled for ${disabled.combinedTicker}`,
      });
      // A ticker whose market data is disabled has no report, and the refusal says why.
      await expect(generate({ combinedTicker: disabled.combinedTicker })).rejects.toMatchObject({
        message: `There are no trades of ${disabled.combinedTicker} between ${D1} and ${D2}: its market data is disabled`,
      });
    });

    it('stores reports under unguessable guids: listed newest first, read by guid, regenerated only with allowSearch', async () => {
      const a = await generate({ allowSearch: true });
      const b = await generate({ allowSearch: false, startDate: D2 });
      expect(a.guid).not.toBe(b.guid);
      const { reports } = await requester.request(Topics.ReportsList, { combinedTicker: target.ticker });
      expect(reports[0]).toMatchObject({ guid: b.guid, startDate: D2, endDate: D2, allowSearch: false });
      expect(reports.map((r) => r.guid)).toContain(a.guid);
      expect(await requester.request(Topics.ReportsGet, { guid: a.guid })).toEqual(a);
      const again = await requester.request(
        Topics.ReportsRegenerate,
        { guid: a.guid, startDate: D2, endDate: D2 },
        60_000,
      );
      expect(again.guid).not.toBe(a.guid);
      expect(again).toMatchObject({
        startDate: D2,
        endDate: D2,
        ticker: target.combinedTicker,
        allowSearch: true,
      });
      expect(again.activitySummary.totalValue).toBe(2400);
      await expectAppError(
        requester.request(Topics.ReportsRegenerate, { guid: b.guid, startDate: D1, endDate: D2 }),
        'FORBIDDEN',
        'This report does not allow searching other dates',
      );
      await expectAppError(
        requester.request(Topics.ReportsGet, { guid: 'f'.repeat(32) }),
        'NOT_FOUND',
        'Report not found',
      );
      await expectAppError(
        requester.request(Topics.ReportsRegenerate, { guid: 'f'.repeat(32) }),
        'NOT_FOUND',
        'Report not found',
      );
    });

    it("a report asked for without allowSearch allows none (the Reports tab's 'Allow search', default off): stored so, and its search refused", async () => {
      const unticked = await generate({ allowSearch: undefined, startDate: D2 });
      expect(unticked.allowSearch).toBe(false);
      const { reports } = await requester.request(Topics.ReportsList, { combinedTicker: target.ticker });
      expect(reports.find((r) => r.guid === unticked.guid)).toMatchObject({ allowSearch: false });
      await expectAppError(
        requester.request(Topics.ReportsRegenerate, { guid: unticked.guid, startDate: D1, endDate: D2 }),
        'FORBIDDEN',
        'This report does not allow searching other dates',
      );
    });

    it('bounds public regenerations: the same range answers the stored one, a search of a search counts for its staff report, at most REPORT_REGENERATIONS_PER_REPORT are kept, an expired one is gone and pruned', async () => {
      const a = await generate({ allowSearch: true });
      const regenerate = (guid: string, startDate: string, endDate: string) =>
        requester.request(Topics.ReportsRegenerate, { guid, startDate, endDate }, 60_000);
      const searchesOf = async (parent: string) =>
        (await db.query(
          `SELECT guid, expires_at > now() + interval '6 days' AS "keptAWeek" FROM reports.reports WHERE parent_guid = $1`,
          [parent],
        )) as Array<{ guid: string; keptAWeek: boolean }>;

      // The same search again (in a loop, or two at once) is the report already made.
      const first = await regenerate(a.guid, D2, D2);
      expect((await regenerate(a.guid, D2, D2)).guid).toBe(first.guid);
      const [x, y] = await Promise.all([regenerate(a.guid, D1, D2), regenerate(a.guid, D1, D2)]);
      expect(x.guid).toBe(y.guid);
      // A search from a search belongs to the staff report.
      const fromSearch = await regenerate(first.guid, D1, D1);
      const kept = await searchesOf(a.guid);
      expect(kept.map((r) => r.guid).sort()).toEqual([first.guid, x.guid, fromSearch.guid].sort());
      expect(kept.every((r) => r.keptAWeek)).toBe(true);

      // As many as are kept at once: another range is refused, nothing stored.
      await expectAppError(
        regenerate(a.guid, '2026-02-02', D2),
        'TOO_MANY_REQUESTS',
        'This report has been searched over 3 other date ranges, as many as are kept at once: open one of them, or try again once they expire',
      );
      expect(await searchesOf(a.guid)).toHaveLength(3);

      // Expired: its link is gone, its range may be searched again, and the prune job deletes what expired.
      await db.query(`UPDATE reports.reports SET expires_at = now() - interval '1 second' WHERE guid = $1`, [
        first.guid,
      ]);
      await expectAppError(
        requester.request(Topics.ReportsGet, { guid: first.guid }),
        'NOT_FOUND',
        'Report not found',
      );
      const again = await regenerate(a.guid, D2, D2);
      expect(again.guid).not.toBe(first.guid);
      expect(await requester.request(Topics.ReportsGet, { guid: again.guid })).toEqual(again);
      await db.query(`UPDATE reports.reports SET expires_at = now() - interval '1 second' WHERE guid = $1`, [
        fromSearch.guid,
      ]);
      expect(await app.get(PruneRegenerations).run()).toBe(1);
      expect((await searchesOf(a.guid)).map((r) => r.guid).sort()).toEqual([again.guid, x.guid].sort());
      // The staff report itself never expires.
      expect(await requester.request(Topics.ReportsGet, { guid: a.guid })).toEqual(a);
    });

    it('refuses bad input with a message, never a 500', async () => {
      await expectAppError(
        generate({ startDate: D2, endDate: D1 }),
        'BAD_REQUEST',
        `The end date ${D1} is before the start date ${D2}`,
      );
      await expectAppError(generate({ peers: ['NOPE9'] }), 'BAD_REQUEST', 'Unknown peer NOPE9');
      await expectAppError(
        generate({ combinedTicker: 'NOPE9:ASX' }),
        'NOT_FOUND',
        'Unknown ticker NOPE9:ASX',
      );
      await expectAppError(
        generate({ startDate: '2026-03-07', endDate: '2026-03-08' }),
        'BAD_REQUEST',
        'There are no trading days between 2026-03-07 and 2026-03-08',
      );
      await expectAppError(
        generate({ startDate: '2026-03-04', endDate: '2026-03-05' }),
        'BAD_REQUEST',
        `There are no trades of ${target.combinedTicker} between 2026-03-04 and 2026-03-05: the market data of 2 trading days are missing`,
      );
      await expectAppError(
        generate({ combinedTicker: many.combinedTicker, startDate: D2, endDate: D2 }),
        'BAD_REQUEST',
        `There are no trades of ${many.combinedTicker} between ${D2} and ${D2}`,
      );
    });
  });

  it("a re-loaded stock-day replaces its sums, and a report's figures are those of its trades", async () => {
    const days = ['2026-02-18', '2026-02-19'];
    const client = app.get(MarketDataProvider).use();
    // BHP's simulated days (about 950 trades each): a code made from this run's clock has volumes from its
    // hash, and some days of some codes have a hundred trades or fewer.
    const loaded = await Promise.all(
      days.map(async (day) => (await client.trades('BHP', day)).map(tradeToCopyOf)),
    );
    expect(loaded.every((trades) => trades.length > 100)).toBe(true);
    const market = app.get(MarketRepository);
    // The first day loaded with the second's trades, then with its own twice: only the last load counts.
    await market.replaceDay(summed.id, days[0]!, loaded[1]!);
    for (const [i, day] of days.entries()) {
      await market.replaceDay(summed.id, day, loaded[i]!);
      await market.replaceDay(summed.id, day, loaded[i]!);
    }
    const all = loaded.flat();
    const byBroker = new Map<number, BrokerAggregate>();
    const side = (broker: number) => {
      const a = byBroker.get(broker) ?? {
        broker,
        name: null,
        buys: 0,
        buyVol: 0,
        buyValueE4: 0,
        sells: 0,
        sellVol: 0,
        sellValueE4: 0,
      };
      byBroker.set(broker, a);
      return a;
    };
    for (const t of all) {
      const buyer = side(t.buyerBroker);
      buyer.buys += 1;
      buyer.buyVol += t.volume;
      buyer.buyValueE4 += t.priceE4 * t.volume;
      const seller = side(t.sellerBroker);
      seller.sells += 1;
      seller.sellVol += t.volume;
      seller.sellValueE4 += t.priceE4 * t.volume;
    }
    const names = new Map<number, string>(
      (await db.query(`SELECT id, name FROM reports.brokers`)).map((b: { id: number; name: string }) => [
        b.id,
        b.name,
      ]),
    );
    const totalVolume = all.reduce((n, t) => n + t.volume, 0);
    const totalValueE4 = all.reduce((n, t) => n + t.priceE4 * t.volume, 0);
    const expectedBrokers = [...byBroker.values()]
      .sort((a, b) => b.buyValueE4 + b.sellValueE4 - (a.buyValueE4 + a.sellValueE4) || a.broker - b.broker)
      .slice(0, TOP_BROKERS)
      .map((a) => brokerShareOf({ ...a, name: names.get(a.broker) ?? null }, totalVolume));
    const bySeq = (trades: TradeToCopy[]) => [...trades].sort((a, b) => a.seq - b.seq);
    const prices = (trades: TradeToCopy[]) => trades.map((t) => t.priceE4);

    const report = await generate({
      combinedTicker: summed.combinedTicker,
      startDate: days[0],
      endDate: days[1],
    });
    expect(report.brokerActivityViewModels[0]!.brokerShareAnalysis).toEqual({
      ticker: summed.combinedTicker,
      totalValue: round(e4ToDollars(totalValueE4)),
      totalVolume,
      numTrades: all.length,
      brokerCount: byBroker.size,
      brokers: expectedBrokers,
    });
    expect(report.activitySummary).toMatchObject({
      numTrades: all.length,
      totalVolume,
      open: e4ToDollars(bySeq(loaded[0]!)[0]!.priceE4),
      close: e4ToDollars(bySeq(loaded[1]!).at(-1)!.priceE4),
      high: e4ToDollars(Math.max(...prices(all))),
      low: e4ToDollars(Math.min(...prices(all))),
    });
    expect(
      report.tradeAnalysis.map(({ day, numTrades, high, low, close }) => ({
        day,
        numTrades,
        high,
        low,
        close,
      })),
    ).toEqual(
      loaded.map((trades, i) => ({
        day: days[i],
        numTrades: trades.length,
        high: e4ToDollars(Math.max(...prices(trades))),
        low: e4ToDollars(Math.min(...prices(trades))),
        close: e4ToDollars(bySeq(trades).at(-1)!.priceE4),
      })),
    );
    // The pre-release check's input: each broker's net volume and value per day.
    const net = new Map<string, { netVol: number; netValueE4: number }>();
    for (const [i, trades] of loaded.entries())
      for (const t of trades)
        for (const [broker, sign] of [
          [t.buyerBroker, 1],
          [t.sellerBroker, -1],
        ] as const) {
          const key = `${days[i]}:${broker}`;
          const n = net.get(key) ?? { netVol: 0, netValueE4: 0 };
          n.netVol += sign * t.volume;
          n.netValueE4 += sign * t.priceE4 * t.volume;
          net.set(key, n);
        }
    const dailyNet = await app.get(ReportsRepository).dailyNet(summed.id, days[0]!, days[1]!);
    expect(
      new Map(dailyNet.map((d) => [`${d.day}:${d.broker}`, { netVol: d.netVol, netValueE4: d.netValueE4 }])),
    ).toEqual(net);
  });

  it('the demo pattern: the stand-in accumulator is flagged before a price-sensitive announcement of BHP', async () => {
    const bhp = stock('BHP', { archived: false });
    await app.get(StockProjectionService).receive(bhp);
    // A price-sensitive announcement of BHP in the simulated market: 2026-10-15 (the ASX stand-in's history).
    const announcementDay = '2026-10-15';
    const days = asxTradingDaysBetween('2026-08-24', announcementDay);
    for (const day of days) await requester.request(Topics.ReportsRunPriorDay, { actor: admin, day }, 60_000);
    await app
      .get(DataSource)
      .query(
        `INSERT INTO reports.announcements (id, stock_id, released_at, day, headline, price_sensitive) VALUES ($1, $2, $3, $4, 'Results', true)`,
        [randomUUID(), bhp.id, `${announcementDay}T00:00:00.000Z`, announcementDay],
      );
    const report = await generate({
      combinedTicker: 'BHP:ASX',
      startDate: '2026-10-01',
      endDate: announcementDay,
    });
    expect(report.preRelease.flags.map((f) => f.broker)).toContain('Tasman Ridge Securities');
    const flag = report.preRelease.flags.find((f) => f.broker === 'Tasman Ridge Securities')!;
    expect(flag.netVol).toBeGreaterThan(0);
    expect(flag.sessions).toHaveLength(5);
  });
});

function round2(n: number) {
  return Math.round(n * 100) / 100;
}
