import {
  AppError,
  createLogger,
  errorText,
  Outbox,
  SERVICE_CONFIG,
  SingletonJobs,
  UnitOfWork,
} from '@irp/platform';
import {
  asxTradingDaysBetween,
  ErrorCode,
  isAsxTradingDay,
  MarketDataFailedEvent,
  previousAsxTradingDay,
  sydneyDayOf,
  Topics,
} from '@irp/proto';
import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import { UnknownSecurityError } from './market-data-client';
import { MarketDataProvider } from './market-data.provider';
import { GapKind, GapRow, MarketRepository } from './market.repository';
import { mapLimited, providerCodeOf, quoteFieldsOf, tradeRowOf } from './market-rules';

const log = createLogger('market-jobs');

export const WATCHLIST_JOB = 'reports:sync-watchlist';
export const PRIOR_DAY_JOB = 'reports:prior-day';

export interface JobFailure {
  ticker: string;
  errorMessage: string;
}

export interface WatchlistResult {
  success: boolean;
  stocks: number;
  updated: number;
  failed: JobFailure[];
  errorMessage: string | null;
  /** The explicit sync: stocks whose manual quote (a staff user's edit) the provider's replaced. */
  manualReplaced: string[];
  /** An automatic sync: stocks whose manual quote of the current trading day it left alone. */
  manualKept: string[];
}

/**
 * Who asked for a watchlist sync. 'explicit': a staff user (`POST /api/admin/syncWatchlist`), who gets the
 * provider's quote of every stock, a manual quote included. 'automatic': the service itself (at start,
 * every WATCHLIST_SYNC_INTERVAL_MS, a stock joining the watchlist), which never replaces a manual quote
 * entered on the current trading day (docs/api/reports.md, "Quotes").
 */
export type SyncMode = 'explicit' | 'automatic';

/**
 * The trading day a quote taken now belongs to: today in Sydney when the ASX trades today, else the last
 * trading day before (a weekend or holiday is still the previous trading day's).
 */
export function currentTradingDay(now: Date): string {
  const today = sydneyDayOf(now);
  return isAsxTradingDay(today) ? today : previousAsxTradingDay(today);
}

export interface TradesResult {
  success: boolean;
  day: string;
  stocks: number;
  loaded: number;
  skipped: number;
  trades: number;
  failed: JobFailure[];
  errorMessage: string | null;
}

const isOutage = (error: unknown) =>
  !(error instanceof AppError) || error.code === ErrorCode.ServiceUnavailable;

/**
 * The market-data jobs: the watchlist's quotes (every stock without disableMarketData, not archived) and
 * the trades of trading days not loaded yet (the prior trading day, and the MARKET_HISTORY_DAYS before it).
 * Singleton jobs on a schedule (one instance runs each, the first time as soon as it holds the job: at
 * start) and on demand through their routes; idempotent (a loaded stock-day is skipped, a quote is
 * overwritten, but an automatic sync leaves a staff user's manual quote of the current trading day alone).
 * A stock joining the watchlist gets its quote (and history) at once, not at the jobs' next run. A provider
 * outage, after the adapter's retries, is remembered per stock-day (market_gaps: reports over it say the
 * data is missing) and reported once per gap with `market-data.failed`, which the announcements service
 * mails to the system settings' error email.
 */
@Injectable()
export class MarketJobs implements OnModuleInit, OnModuleDestroy {
  private tradesRun: Promise<unknown> = Promise.resolve();
  private quotesRun: Promise<unknown> = Promise.resolve();
  private historyTimer?: NodeJS.Timeout;
  /** Stocks that joined the watchlist and wait for their quote; one sync takes all that are waiting. */
  private readonly joined = new Set<string>();
  private joinSyncQueued = false;

  constructor(
    private readonly jobs: SingletonJobs,
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
    private readonly provider: MarketDataProvider,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    @Inject(SERVICE_CONFIG) private readonly config: ReportsConfig,
  ) {}

  onModuleInit() {
    if (!this.provider.configured) {
      log.warn('no market-data provider configured (MARKET_DATA_BASE_URL): market data is not read');
      return;
    }
    if (this.config.MARKET_JOBS_DISABLED) return;
    this.jobs.register({
      name: WATCHLIST_JOB,
      intervalMs: this.config.WATCHLIST_SYNC_INTERVAL_MS,
      run: async () => {
        await this.syncWatchlist('automatic');
      },
    });
    // A stock joining the watchlist (new, unarchived, market data enabled again, or a new ticker; also each
    // stock of the projection filling after the start run found it empty): its quote at once. Automatic,
    // so a manual quote of the trading day stays.
    this.stocks.onStockJoinedWatchlist((stock) => this.quoteJoined(stock.id));
    // A stock new to the watchlist (or the projection filling at start): its history soon, not at the next run.
    this.stocks.onStockChanged((stock) => {
      if (stock.archived || stock.disableMarketData || this.config.MARKET_HISTORY_DAYS === 0) return;
      clearTimeout(this.historyTimer);
      this.historyTimer = setTimeout(() => {
        this.loadHistory().catch((err: unknown) => log.error({ err: errorText(err) }, 'history load failed'));
      }, 2000);
      this.historyTimer.unref();
    });
    this.jobs.register({
      name: PRIOR_DAY_JOB,
      intervalMs: this.config.PRIOR_DAY_INTERVAL_MS,
      run: async () => {
        await this.loadHistory();
      },
    });
  }

  onModuleDestroy() {
    clearTimeout(this.historyTimer);
  }

  /**
   * The current quote of every watchlist stock (`stockIds`: of those of them on the watchlist). One quote
   * sync at a time in this process, so a join's sync and a scheduled or explicit one do not interleave.
   */
  syncWatchlist(
    mode: SyncMode = 'explicit',
    stockIds?: string[],
    now = new Date(),
  ): Promise<WatchlistResult> {
    return this.serialisedQuotes(() => this.syncQuotes(mode, stockIds, now));
  }

  private serialisedQuotes<T>(work: () => Promise<T>): Promise<T> {
    const next = this.quotesRun.catch(() => undefined).then(work);
    this.quotesRun = next;
    return next;
  }

  /**
   * A stock joined the watchlist: quoted by the next join sync, which takes every stock waiting when it
   * starts (the projection filling at start is one sync, not one per stock).
   */
  private quoteJoined(stockId: string): void {
    this.joined.add(stockId);
    if (this.joinSyncQueued) return;
    this.joinSyncQueued = true;
    this.serialisedQuotes(() => {
      this.joinSyncQueued = false;
      const stockIds = [...this.joined];
      this.joined.clear();
      return this.syncQuotes('automatic', stockIds, new Date());
    }).catch((err: unknown) => log.error({ err: errorText(err) }, 'watchlist sync of joining stocks failed'));
  }

  private async syncQuotes(mode: SyncMode, only: string[] | undefined, now: Date): Promise<WatchlistResult> {
    const client = this.provider.use();
    const watchlist = await this.stocks.watchlist();
    const wanted = only && new Set(only);
    const asked = wanted ? watchlist.filter((s) => wanted.has(s.id)) : watchlist;
    const result: WatchlistResult = {
      success: true,
      stocks: asked.length,
      updated: 0,
      failed: [],
      errorMessage: null,
      manualReplaced: [],
      manualKept: [],
    };
    // An automatic sync does not ask the provider for a stock whose manual quote it would keep anyway.
    const tradingDay = mode === 'automatic' ? currentTradingDay(now) : undefined;
    const manual = tradingDay
      ? await this.market.manualQuotesSince(
          asked.map((s) => s.id),
          tradingDay,
        )
      : new Set<string>();
    const stocks = asked.filter((s) => !manual.has(s.id));
    result.manualKept = asked.filter((s) => manual.has(s.id)).map((s) => s.combinedTicker);
    if (!stocks.length) return result;
    const day = sydneyDayOf(now);
    let quotes;
    try {
      quotes = await client.quotes([...new Set(stocks.map(providerCodeOf))]);
    } catch (error) {
      const message = errorText(error);
      await this.reportGaps(
        'sync-watchlist',
        day,
        stocks,
        stocks.map((s) => ({ stockId: s.id, day, kind: 'quote' as GapKind, reason: message })),
        message,
      );
      log.error({ err: message, mode }, 'watchlist sync failed');
      return { ...result, success: false, errorMessage: message };
    }
    const byCode = new Map(quotes.map((q) => [q.code.toUpperCase(), q]));
    for (const stock of stocks) {
      const quote = byCode.get(providerCodeOf(stock));
      if (!quote) {
        result.failed.push({
          ticker: stock.combinedTicker,
          errorMessage: 'The market-data provider has no quote of it',
        });
        continue;
      }
      const saved = await this.market.saveQuote(
        { stockId: stock.id, source: 'provider', fields: quoteFieldsOf(quote) },
        undefined,
        tradingDay,
      );
      await this.market.clearGap(stock.id, day, 'quote');
      if (saved.outcome === 'kept') {
        // A staff user saved a quote while the provider was being read.
        result.manualKept.push(stock.combinedTicker);
        continue;
      }
      if (saved.before === 'manual') result.manualReplaced.push(stock.combinedTicker);
      result.updated += 1;
    }
    result.success = result.failed.length === 0;
    log.info(
      {
        mode,
        stocks: result.stocks,
        updated: result.updated,
        failed: result.failed.length,
        manualKept: result.manualKept.length,
        manualReplaced: result.manualReplaced.length,
      },
      'watchlist synced',
    );
    return result;
  }

  /** The prior trading day's trades (`day`: another day, for repairs). */
  runPriorDay(day?: string, now = new Date()): Promise<TradesResult> {
    const target = day ?? previousAsxTradingDay(sydneyDayOf(now));
    return this.serialised(() => this.loadDays([target], 'prior-day'));
  }

  /** Every trading day of the history window (MARKET_HISTORY_DAYS before the prior day) not loaded yet. */
  loadHistory(now = new Date()): Promise<TradesResult> {
    const last = previousAsxTradingDay(sydneyDayOf(now));
    const first = new Date(Date.parse(`${last}T00:00:00Z`) - this.config.MARKET_HISTORY_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10);
    return this.serialised(() => this.loadDays(asxTradingDaysBetween(first, last), 'history'));
  }

  /** Reads and stores the daily OHLCV of a stock (the year before the prior day); its row count. */
  async updateChartData(stock: ProjectedStock, now = new Date()): Promise<number> {
    const client = this.provider.use();
    const last = previousAsxTradingDay(sydneyDayOf(now));
    const from = new Date(Date.parse(`${last}T00:00:00Z`) - 366 * 86_400_000).toISOString().slice(0, 10);
    const bars = await client.dailyBars(providerCodeOf(stock), from, last);
    return this.market.saveDailyPrices(stock.id, bars);
  }

  /** One trades load at a time in this process (a scheduled run and a route's run do not overlap). */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tradesRun.catch(() => undefined).then(work);
    this.tradesRun = next;
    return next;
  }

  private async loadDays(days: string[], job: 'prior-day' | 'history'): Promise<TradesResult> {
    const client = this.provider.use();
    const stocks = await this.stocks.watchlist();
    const label = days.length === 1 ? days[0]! : `${days[0] ?? ''}..${days[days.length - 1] ?? ''}`;
    const empty: TradesResult = {
      success: true,
      day: label,
      stocks: stocks.length,
      loaded: 0,
      skipped: 0,
      trades: 0,
      failed: [],
      errorMessage: null,
    };
    if (!stocks.length || !days.length) return empty;
    try {
      if ((await this.market.brokerCount()) === 0 || job === 'prior-day')
        await this.market.saveBrokers(await client.brokers());
    } catch (error) {
      log.warn({ err: errorText(error) }, 'broker list not read; names are kept from the last read');
    }
    const loaded = await this.market.loadedDays(
      stocks.map((s) => s.id),
      days[0]!,
      days[days.length - 1]!,
    );
    const work = stocks.flatMap((stock) =>
      days.filter((d) => !loaded.has(`${stock.id}:${d}`)).map((day) => ({ stock, day })),
    );
    const unlisted = new Set<string>();
    const results = await mapLimited(work, this.config.MARKET_LOAD_CONCURRENCY, async ({ stock, day }) => {
      if (unlisted.has(stock.id)) throw new UnknownSecurityError(providerCodeOf(stock));
      try {
        const trades = (await client.trades(providerCodeOf(stock), day)).map(tradeRowOf);
        await this.market.replaceDay(stock.id, day, trades);
        return trades.length;
      } catch (error) {
        if (error instanceof UnknownSecurityError) unlisted.add(stock.id);
        throw error;
      }
    });
    const result: TradesResult = { ...empty, skipped: stocks.length * days.length - work.length };
    const gaps: GapRow[] = [];
    const failedTickers = new Set<string>();
    results.forEach((r, i) => {
      const { stock, day } = work[i]!;
      if (r.ok) {
        result.loaded += 1;
        result.trades += r.value;
        return;
      }
      const message = errorText(r.error);
      if (!failedTickers.has(stock.combinedTicker))
        result.failed.push({ ticker: stock.combinedTicker, errorMessage: message });
      failedTickers.add(stock.combinedTicker);
      if (isOutage(r.error)) gaps.push({ stockId: stock.id, day, kind: 'trades', reason: message });
    });
    if (gaps.length) {
      const message = gaps[0]!.reason;
      await this.reportGaps(
        job,
        label,
        stocks.filter((s) => gaps.some((g) => g.stockId === s.id)),
        gaps,
        message,
      );
      result.errorMessage = `The market-data provider could not serve ${gaps.length} stock-day(s): ${message}`;
    }
    result.success = result.failed.length === 0;
    log.info(
      {
        job,
        day: label,
        loaded: result.loaded,
        skipped: result.skipped,
        trades: result.trades,
        failed: result.failed.length,
      },
      'trades loaded',
    );
    return result;
  }

  /** Remembers the gaps and, for those not reported yet, publishes one `market-data.failed` (same transaction). */
  private async reportGaps(
    job: MarketDataFailedEvent['job'],
    day: string,
    stocks: ProjectedStock[],
    gaps: GapRow[],
    message: string,
  ): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const fresh = await this.market.recordGaps(gaps, tx);
      if (!fresh.length) return;
      const tickers = stocks
        .filter((s) => fresh.some((g) => g.stockId === s.id))
        .map((s) => s.combinedTicker);
      const event: MarketDataFailedEvent = {
        key: `${job}:${day}:${fresh.length}:${fresh
          .map((g) => `${g.stockId}/${g.day}`)
          .join(',')
          .slice(0, 200)}`,
        job,
        day,
        tickers,
        message,
        at: new Date().toISOString(),
      };
      await this.outbox.add(tx, Topics.MarketDataFailed, `reports:${job}`, event);
      await this.market.markGapsReported(fresh, tx);
    });
  }
}
