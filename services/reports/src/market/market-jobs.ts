import { createLogger, errorText, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { LoadMarketHistory } from './load-market-history';
import { MarketDataProvider } from './market-data.provider';
import { SyncWatchlistQuotes } from './sync-watchlist-quotes';

const log = createLogger('market-jobs');

export const WATCHLIST_JOB = 'reports:sync-watchlist';
export const PRIOR_DAY_JOB = 'reports:prior-day';

/**
 * When the market data is read: the watchlist's quotes (SyncWatchlistQuotes) and the trades of trading days
 * not loaded yet (LoadMarketHistory: the latest day published at T+3 and the MARKET_HISTORY_DAYS before it).
 * Singleton jobs on a schedule (one instance runs each, the first time as soon as it holds the job: at
 * start) and on demand through their routes; idempotent. A stock joining the watchlist gets its quote (and
 * history) at once, not at the jobs' next run.
 */
@Injectable()
export class MarketJobs implements OnModuleInit, OnModuleDestroy {
  private historyTimer?: NodeJS.Timeout;

  constructor(
    private readonly jobs: SingletonJobs,
    private readonly stocks: StockProjectionService,
    private readonly provider: MarketDataProvider,
    private readonly quotes: SyncWatchlistQuotes,
    private readonly history: LoadMarketHistory,
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
        await this.quotes.run('automatic');
      },
    });
    // A stock joining the watchlist (new, unarchived, market data enabled again, or a new ticker; also each
    // stock of the projection filling after the start run found it empty): its quote at once. Automatic,
    // so a manual quote of the trading day stays.
    this.stocks.onStockJoinedWatchlist((stock) => this.quotes.quoteJoined(stock.id));
    // A stock new to the watchlist (or the projection filling at start): its history soon, not at the next run.
    this.stocks.onStockChanged((stock) => {
      if (stock.archived || stock.disableMarketData || this.config.MARKET_HISTORY_DAYS === 0) return;
      clearTimeout(this.historyTimer);
      this.historyTimer = setTimeout(() => {
        this.history.run().catch((err: unknown) => log.error({ err: errorText(err) }, 'history load failed'));
      }, 2000);
      this.historyTimer.unref();
    });
    this.jobs.register({
      name: PRIOR_DAY_JOB,
      intervalMs: this.config.PRIOR_DAY_INTERVAL_MS,
      run: async () => {
        await this.history.run();
      },
    });
  }

  onModuleDestroy() {
    clearTimeout(this.historyTimer);
  }
}
