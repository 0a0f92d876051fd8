import { SERVICE_CONFIG } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { publishedTradeDay } from './market-rules';
import { TradeDaysLoader, TradesResult } from './trade-days-loader';

/**
 * The latest trading day whose trades the provider has published (T+3, MARKET_DATA_PUBLICATION_LAG_DAYS):
 * `POST /api/admin/runPriorDay`; `day`: another day, for repairs.
 */
@Injectable()
export class LoadPriorDay {
  constructor(
    private readonly loader: TradeDaysLoader,
    @Inject(SERVICE_CONFIG) private readonly config: ReportsConfig,
  ) {}

  run(day?: string, now = new Date()): Promise<TradesResult> {
    const published = publishedTradeDay(now, this.config.MARKET_DATA_PUBLICATION_LAG_DAYS);
    return this.loader.load([day ?? published], 'prior-day', now);
  }
}
