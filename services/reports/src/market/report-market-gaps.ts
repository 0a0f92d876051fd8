import { Outbox, UnitOfWork } from '@irp/platform';
import { MarketDataFailedEvent, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import type { ProjectedStock } from '../stocks/stock-projection.repository';
import type { MarketGap } from './market-gap.entity';
import { MarketRepository } from './market.repository';

/**
 * What the provider could not serve, after the adapter's retries: remembered per stock-day (market_gaps:
 * reports over it say the data is missing) and reported once per gap with `market-data.failed`, which the
 * announcements service mails to the system settings' error email.
 */
@Injectable()
export class ReportMarketGaps {
  constructor(
    private readonly market: MarketRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** Remembers the gaps and, for those not reported yet, publishes one `market-data.failed` (same transaction). */
  async run(
    job: MarketDataFailedEvent['job'],
    day: string,
    stocks: ProjectedStock[],
    gaps: MarketGap[],
    message: string,
  ): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const fresh = await this.market.recordGaps(gaps, tx);
      if (!fresh.length) return;
      const tickers = stocks
        .filter((s) => fresh.some((g) => g.stockId === s.id))
        .map((s) => s.combinedTicker);
      const event: MarketDataFailedEvent = {
        key: `${job}:${day}:${fresh.length}:${fresh
          .map((g) => `${g.stockId}/${g.day}`)
          .join(',')
          .slice(0, 200)}`,
        job,
        day,
        tickers,
        message,
        at: new Date().toISOString(),
      };
      await this.outbox.add(tx, Topics.MarketDataFailed, `reports:${job}`, event);
      await this.market.markGapsReported(fresh, tx);
    });
  }
}
