import { createLogger, errorText } from '@irp/platform';
import { sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { MarketDataProvider } from './market-data.provider';
import { currentTradingDay, JobFailure, providerCodeOf, quoteFieldsOf } from './market-rules';
import { MarketRepository } from './market.repository';
import { ReportMarketGaps } from './report-market-gaps';

const log = createLogger('market-jobs');

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
 * The current quote of every watchlist stock (every stock without disableMarketData, not archived), from
 * the provider: the `reports:sync-watchlist` job (MarketJobs), a staff user's sync, and a stock joining the
 * watchlist (quoted at once, not at the job's next run). A quote is overwritten, but an automatic sync
 * leaves a staff user's manual quote of the current trading day alone. An outage is a gap of the quotes
 * (ReportMarketGaps).
 */
@Injectable()
export class SyncWatchlistQuotes {
  private quotesRun: Promise<unknown> = Promise.resolve();
  /** Stocks that joined the watchlist and wait for their quote; one sync takes all that are waiting. */
  private readonly joined = new Set<string>();
  private joinSyncQueued = false;

  constructor(
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
    private readonly provider: MarketDataProvider,
    private readonly gaps: ReportMarketGaps,
  ) {}

  /**
   * The current quote of every watchlist stock (`stockIds`: of those of them on the watchlist). One quote
   * sync at a time in this process, so a join's sync and a scheduled or explicit one do not interleave.
   */
  run(mode: SyncMode = 'explicit', stockIds?: string[], now = new Date()): Promise<WatchlistResult> {
    return this.serialisedQuotes(() => this.syncQuotes(mode, stockIds, now));
  }

  /**
   * A stock joined the watchlist: quoted by the next join sync, which takes every stock waiting when it
   * starts (the projection filling at start is one sync, not one per stock).
   */
  quoteJoined(stockId: string): void {
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

  private serialisedQuotes<T>(work: () => Promise<T>): Promise<T> {
    const next = this.quotesRun.catch(() => undefined).then(work);
    this.quotesRun = next;
    return next;
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
      await this.gaps.run(
        'sync-watchlist',
        day,
        stocks,
        stocks.map((s) => ({ stockId: s.id, day, kind: 'quote' as const, reason: message })),
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
}
