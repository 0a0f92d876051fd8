import { MarketData, MarketDataField } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { MarketRepository } from './market.repository';

/**
 * A staff user's edit of a stock's quote on the Market tab: the fields given (others stay), a manual quote
 * that an automatic sync of the same trading day leaves alone.
 */
@Injectable()
export class SaveMarketData {
  constructor(
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  async run(
    combinedTicker: string,
    fields: Partial<Record<MarketDataField, number | null>>,
  ): Promise<MarketData> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    await this.market.saveQuote({ stockId: stock.id, source: 'manual', fields });
    return (await this.market.quote(stock.id))!;
  }
}
