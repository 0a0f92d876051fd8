import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import type { SubscriberRow } from './subscribers.repository';
import type { SubscriptionOutcome } from './subscription-rules';

/** What a subscription link answers, with the company it is for (this service's stock projection). */
@Injectable()
export class SubscriptionOutcomes {
  constructor(private readonly stocks: StockProjectionService) {}

  async of(row: SubscriberRow, message: string): Promise<SubscriptionOutcome> {
    const stock = await this.stocks.byId(row.stockId);
    return {
      email: row.email,
      companyName: stock?.companyName ?? '',
      combinedTicker: stock?.combinedTicker ?? '',
      status: row.status,
      message,
      preference: row.preference,
      pausedUntil: row.pausedUntil && row.pausedUntil > new Date() ? row.pausedUntil.toISOString() : null,
    };
  }
}
