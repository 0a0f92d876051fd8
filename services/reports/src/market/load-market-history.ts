import { SERVICE_CONFIG } from '@irp/platform';
import { asxTradingDaysBetween, previousAsxTradingDay, sydneyDayOf } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { TradeDaysLoader, TradesResult } from './trade-days-loader';

/**
 * Every trading day of the history window (MARKET_HISTORY_DAYS before the prior day, the prior day
 * included) not loaded yet: the `reports:prior-day` job (MarketJobs) and a stock new to the watchlist.
 */
@Injectable()
export class LoadMarketHistory {
  constructor(
    private readonly loader: TradeDaysLoader,
    @Inject(SERVICE_CONFIG) private readonly config: ReportsConfig,
  ) {}

  run(now = new Date()): Promise<TradesResult> {
    const last = previousAsxTradingDay(sydneyDayOf(now));
    const first = new Date(Date.parse(`${last}T00:00:00Z`) - this.config.MARKET_HISTORY_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10);
    return this.loader.load(asxTradingDaysBetween(first, last), 'history');
  }
}
