import { AppError, createLogger, errorText, SERVICE_CONFIG } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { TradesNotPublishedError, UnknownSecurityError } from './market-data-client';
import { MarketDataProvider } from './market-data.provider';
import type { MarketGap } from './market-gap.entity';
import { isPublicationOverdue, JobFailure, mapLimited, providerCodeOf, tradeToCopyOf } from './market-rules';
import { MarketRepository } from './market.repository';
import { ReportMarketGaps } from './report-market-gaps';

const log = createLogger('market-jobs');

export interface TradesResult {
  success: boolean;
  day: string;
  stocks: number;
  loaded: number;
  skipped: number;
  /** Stock-days the provider has not published yet: asked again at the next run. */
  unpublished: number;
  trades: number;
  failed: JobFailure[];
  errorMessage: string | null;
}

const isOutage = (error: unknown) =>
  !(error instanceof AppError) || error.code === ErrorCode.ServiceUnavailable;

/**
 * Loads the trades of the watchlist's stock-days not loaded yet (LoadPriorDay, LoadMarketHistory), one load
 * at a time in this process, so a scheduled run and a route's run do not overlap. Idempotent: a loaded
 * stock-day is skipped. A stock-day the provider could not serve is a gap (ReportMarketGaps). A day the
 * provider has not published yet (T+3) is asked again at a later run, not a gap, until it is overdue
 * (MARKET_DATA_PUBLICATION_LAG_DAYS plus MARKET_DATA_PUBLICATION_GRACE_DAYS trading days): then it is one.
 */
@Injectable()
export class TradeDaysLoader {
  private tradesRun: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
    private readonly provider: MarketDataProvider,
    private readonly gaps: ReportMarketGaps,
    @Inject(SERVICE_CONFIG) private readonly config: ReportsConfig,
  ) {}

  load(days: string[], job: 'prior-day' | 'history', now = new Date()): Promise<TradesResult> {
    const next = this.tradesRun.catch(() => undefined).then(() => this.loadDays(days, job, now));
    this.tradesRun = next;
    return next;
  }

  private async loadDays(days: string[], job: 'prior-day' | 'history', now: Date): Promise<TradesResult> {
    const client = this.provider.use();
    const stocks = await this.stocks.watchlist();
    const label = days.length === 1 ? days[0]! : `${days[0] ?? ''}..${days[days.length - 1] ?? ''}`;
    const empty: TradesResult = {
      success: true,
      day: label,
      stocks: stocks.length,
      loaded: 0,
      skipped: 0,
      unpublished: 0,
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
        const trades = (await client.trades(providerCodeOf(stock), day)).map(tradeToCopyOf);
        await this.market.replaceDay(stock.id, day, trades);
        return trades.length;
      } catch (error) {
        if (error instanceof UnknownSecurityError) unlisted.add(stock.id);
        throw error;
      }
    });
    const result: TradesResult = { ...empty, skipped: stocks.length * days.length - work.length };
    const gaps: MarketGap[] = [];
    const failedTickers = new Set<string>();
    results.forEach((r, i) => {
      const { stock, day } = work[i]!;
      if (r.ok) {
        result.loaded += 1;
        result.trades += r.value;
        return;
      }
      if (r.error instanceof TradesNotPublishedError && !this.overdue(day, now)) {
        result.unpublished += 1;
        return;
      }
      const message = errorText(r.error);
      if (!failedTickers.has(stock.combinedTicker))
        result.failed.push({ ticker: stock.combinedTicker, errorMessage: message });
      failedTickers.add(stock.combinedTicker);
      if (isOutage(r.error) || r.error instanceof TradesNotPublishedError)
        gaps.push({ stockId: stock.id, day, kind: 'trades', reason: message });
    });
    if (gaps.length) {
      const message = gaps[0]!.reason;
      await this.gaps.run(
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
        unpublished: result.unpublished,
      },
      result.unpublished
        ? 'trades loaded; days not published yet are asked again at the next run'
        : 'trades loaded',
    );
    return result;
  }

  /** Whether the provider should have published `day` by `now`, its grace included. */
  private overdue(day: string, now: Date): boolean {
    return isPublicationOverdue(
      day,
      now,
      this.config.MARKET_DATA_PUBLICATION_LAG_DAYS,
      this.config.MARKET_DATA_PUBLICATION_GRACE_DAYS,
    );
  }
}
