import { SERVICE_CONFIG } from '@irp/platform';
import { asxTradingDaysBetween } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { publishedTradeDay } from './market-rules';
import { TradeDaysLoader, TradesResult } from './trade-days-loader';

/**
 * Every trading day of the history window (MARKET_HISTORY_DAYS before the latest published day, that day
 * included) not loaded yet: the `reports:prior-day` job (MarketJobs) and a stock new to the watchlist. The
 * window reaches back at least to the publication deadline, so a day published late is asked again until
 * it loads or is overdue (a gap), whatever MARKET_HISTORY_DAYS is.
 */
@Injectable()
export class LoadMarketHistory {
  constructor(
    private readonly loader: TradeDaysLoader,
    @Inject(SERVICE_CONFIG) private readonly config: ReportsConfig,
  ) {}

  run(now = new Date()): Promise<TradesResult> {
    const lag = this.config.MARKET_DATA_PUBLICATION_LAG_DAYS;
    const last = publishedTradeDay(now, lag);
    const deadline = publishedTradeDay(now, lag + this.config.MARKET_DATA_PUBLICATION_GRACE_DAYS);
    const back = new Date(Date.parse(`${last}T00:00:00Z`) - this.config.MARKET_HISTORY_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10);
    return this.loader.load(asxTradingDaysBetween(back < deadline ? back : deadline, last), 'history', now);
  }
}
