import { previousAsxTradingDay, sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { MarketDataProvider } from './market-data.provider';
import { providerCodeOf } from './market-rules';
import { MarketRepository } from './market.repository';

/** Stock Data's update: reads and stores a stock's daily OHLCV (the year before the prior day). */
@Injectable()
export class UpdateChartData {
  constructor(
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
    private readonly provider: MarketDataProvider,
  ) {}

  /** The stock's row count after. */
  async run(stockId: string, now = new Date()): Promise<number> {
    const stock = await this.stocks.get(stockId);
    const client = this.provider.use();
    const last = previousAsxTradingDay(sydneyDayOf(now));
    const from = new Date(Date.parse(`${last}T00:00:00Z`) - 366 * 86_400_000).toISOString().slice(0, 10);
    const bars = await client.dailyBars(providerCodeOf(stock), from, last);
    return this.market.saveDailyPrices(stock.id, bars);
  }
}
