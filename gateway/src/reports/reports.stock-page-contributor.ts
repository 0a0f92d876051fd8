import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { ServicesClient } from '../kafka/services.client';
import { StockPageContribution, StockPageContributor } from '../stocks/stock-page-contributor';

/** The stock page's `currentMarketData` (the Market tab's quote), from the reports service. */
@Injectable()
export class ReportsStockPageContributor implements StockPageContributor {
  readonly name = 'reports';
  readonly empty: StockPageContribution = { currentMarketData: null };

  constructor(private readonly services: ServicesClient) {}

  async contribute(combinedTicker: string, timeoutMs: number): Promise<StockPageContribution> {
    const { marketData } = await this.services.request(
      Topics.ReportsCurrentMarketData,
      { combinedTicker },
      timeoutMs,
    );
    return { currentMarketData: marketData };
  }
}
