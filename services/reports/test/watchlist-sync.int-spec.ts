import { INestApplication } from '@nestjs/common';
import { dropSchema, rawProducer, serviceTestEnv, waitUntil } from '@irp/platform/testing';
import { Stock, sydneyDayOf, Topics } from '@irp/proto';
import { startMarketStandIn } from '@irp/standins/market';
import type { StandInServer } from '@irp/standins/kit';
import type { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { SaveMarketData } from '../src/market/save-market-data';
import { SyncWatchlistQuotes } from '../src/market/sync-watchlist-quotes';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import { startReportsService } from '../src/main';
import { asxStock } from './test-stocks';

jest.setTimeout(300_000);

interface QuoteRow {
  source: string;
  ask: string | null;
  last: string | null;
}

/**
 * The watchlist sync as the service runs it by itself (jobs on, WATCHLIST_SYNC_INTERVAL_MS at its 15
 * minutes, so nothing here comes from a scheduled run): the quotes at start, a stock's quote as it joins
 * the watchlist, a staff user's manual quote of the trading day left alone by both, and a start with the
 * provider down (the service is up, the gap is recorded). Waits poll the database, never sleep.
 */
describe('reports: the watchlist sync at start and as a stock joins the watchlist', () => {
  let standIn: StandInServer;
  let app: INestApplication | undefined;
  let producer: Producer;
  const run = Date.now().toString(36).slice(-4).toUpperCase();

  // On the watchlist before the service starts: one without a quote, one a staff user quoted by hand.
  const plain = asxStock(`QP${run}`);
  const edited = asxStock(`QE${run}`);
  // Market data disabled, quoted by hand meanwhile; joins the watchlist when it is enabled again.
  const paused = asxStock(`QD${run}`, { disableMarketData: true });
  const MANUAL = { ask: 1234.5, last: 1230 };

  const env = {
    ...serviceTestEnv('reports'),
    MARKET_HISTORY_DAYS: '0',
    MARKET_DATA_MAX_ATTEMPTS: '2',
    MARKET_DATA_MAX_RETRY_AFTER_MS: '1000',
    MARKET_DATA_TIMEOUT_MS: '5000',
  };
  const db = () => app!.get(DataSource);
  const quoteOf = async (stockId: string): Promise<QuoteRow | null> =>
    (
      (await db().query(`SELECT source, ask::text, last::text FROM reports.quotes WHERE stock_id = $1`, [
        stockId,
      ])) as QuoteRow[]
    )[0] ?? null;
  const untilQuoted = (s: Stock) =>
    waitUntil(`a quote of ${s.combinedTicker}`, async () => (await quoteOf(s.id)) !== null, 60_000);
  const expectManual = async (s: Stock) =>
    expect(await quoteOf(s.id)).toEqual({ source: 'manual', ask: '1234.5000', last: '1230.0000' });

  beforeAll(async () => {
    await dropSchema('reports');
    standIn = await startMarketStandIn({ port: 0 });
    producer = await rawProducer();
    // The service as it was before: it knew the stocks, and staff quoted two by hand (the Market tab's
    // call). Its jobs off, so nothing is synced yet.
    app = await startReportsService({
      ...env,
      MARKET_DATA_BASE_URL: standIn.url,
      MARKET_JOBS_DISABLED: 'true',
    });
    const projection = app.get(StockProjectionService);
    for (const s of [edited, plain, paused]) await projection.receive(s);
    for (const s of [edited, paused]) await app.get(SaveMarketData).run(s.combinedTicker, MANUAL);
    expect(await quoteOf(plain.id)).toBeNull();
    await app.close();
    // Started again with its jobs on.
    app = await startReportsService({ ...env, MARKET_DATA_BASE_URL: standIn.url });
  });

  afterAll(async () => {
    await app?.close();
    await producer?.disconnect();
    await standIn?.close();
  });

  it('has the quotes at start, without waiting the interval; a manual quote of the trading day stays', async () => {
    await untilQuoted(plain);
    expect(await quoteOf(plain.id)).toMatchObject({ source: 'provider', last: expect.stringMatching(/^\d/) });
    // The start sync has decided every stock once it saved one: the manual quote was not replaced.
    await expectManual(edited);
  });

  it('quotes a stock new to the watchlist as it joins (stock.upserted), not at the next run', async () => {
    const joining = asxStock(`QJ${run}`);
    await producer.send({
      topic: Topics.StockUpserted,
      messages: [{ key: joining.id, value: JSON.stringify(joining) }],
    });
    await untilQuoted(joining);
    expect((await quoteOf(joining.id))?.source).toBe('provider');
  });

  it('leaves a manual quote alone when its stock joins the watchlist again', async () => {
    const projection = app!.get(StockProjectionService);
    // Market data enabled again: the stock joins (received here, so its join sync is queued before the next).
    await projection.receive({ ...paused, disableMarketData: false, updatedAt: new Date().toISOString() });
    // A stock joining after it: quoted by a sync that runs after the paused stock's (one at a time).
    const after = asxStock(`QK${run}`);
    await projection.receive(after);
    await untilQuoted(after);
    await expectManual(paused);
  });

  it("a staff user's explicit sync takes the provider's quotes, the manual ones included, and names them", async () => {
    const result = await app!.get(SyncWatchlistQuotes).run('explicit');
    expect(result.manualReplaced.sort()).toEqual([edited.combinedTicker, paused.combinedTicker].sort());
    expect((await quoteOf(edited.id))?.source).toBe('provider');
    // Nothing manual is left: a second explicit sync replaces none.
    expect((await app!.get(SyncWatchlistQuotes).run('explicit')).manualReplaced).toEqual([]);
  });

  it('starts with the provider down: the service is up and the quote gap of today is recorded', async () => {
    await db().query(`DELETE FROM reports.market_gaps WHERE kind = 'quote'`);
    await app!.close();
    app = undefined;
    standIn.faults.set({ kind: 'fail', route: 'quotes', status: 503, times: 1000 });
    try {
      app = await startReportsService({ ...env, MARKET_DATA_BASE_URL: standIn.url });
      const { port } = app.getHttpServer().address();
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      const today = sydneyDayOf(new Date());
      await waitUntil(
        `the quote gap of ${plain.combinedTicker} on ${today}`,
        async () =>
          (
            await db().query(
              `SELECT 1 FROM reports.market_gaps WHERE stock_id = $1 AND day = $2 AND kind = 'quote'`,
              [plain.id, today],
            )
          ).length === 1,
        60_000,
      );
      // The quote read before stays; the service still answers.
      expect((await quoteOf(plain.id))?.source).toBe('provider');
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      standIn.faults.clear();
    }
  });
});
