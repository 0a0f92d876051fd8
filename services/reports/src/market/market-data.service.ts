import { AppError } from '@irp/platform';
import { ErrorCode, MarketData, MarketDataField } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { MarketJobs } from './market-jobs';
import { MarketRepository } from './market.repository';

/** The Market tab: a stock's current quote (read and saved by staff) and its daily OHLCV (Stock Data). */
@Injectable()
export class MarketDataService {
  constructor(
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
    private readonly jobs: MarketJobs,
  ) {}

  async save(
    combinedTicker: string,
    fields: Partial<Record<MarketDataField, number | null>>,
  ): Promise<MarketData> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    await this.market.saveQuote({ stockId: stock.id, source: 'manual', fields });
    return (await this.market.quote(stock.id))!;
  }

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

  async chartData(stockId: string) {
    const stock = await this.stocks.get(stockId);
    return this.market.chartData(stock.id);
  }

  async updateChartData(stockId: string): Promise<number> {
    return this.jobs.updateChartData(await this.stocks.get(stockId));
  }
}
