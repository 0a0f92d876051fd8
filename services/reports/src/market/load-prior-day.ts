import { previousAsxTradingDay, sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { TradeDaysLoader, TradesResult } from './trade-days-loader';

/** The prior trading day's trades (`POST /api/admin/runPriorDay`; `day`: another day, for repairs). */
@Injectable()
export class LoadPriorDay {
  constructor(private readonly loader: TradeDaysLoader) {}

  run(day?: string, now = new Date()): Promise<TradesResult> {
    return this.loader.load([day ?? previousAsxTradingDay(sydneyDayOf(now))], 'prior-day');
  }
}
