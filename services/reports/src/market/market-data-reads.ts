import { AppError } from '@irp/platform';
import { ChartDataRow, ErrorCode, MarketData } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { MarketRepository } from './market.repository';

/** The Market tab's reads: a stock's current quote (also the stock page's) and its daily OHLCV (Stock Data). */
@Injectable()
export class MarketDataReads {
  constructor(
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  /** The quote of the stock named; null without one, or when the name is no stock this service knows yet. */
  async current(combinedTicker: string): Promise<MarketData | null> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker).catch((error: unknown) => {
      if (
        error instanceof AppError &&
        (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest)
      )
        return null;
      throw error;
    });
    return stock ? this.market.quote(stock.id) : null;
  }

  async chartData(stockId: string): Promise<ChartDataRow[]> {
    const stock = await this.stocks.get(stockId);
    return this.market.chartData(stock.id);
  }
}
