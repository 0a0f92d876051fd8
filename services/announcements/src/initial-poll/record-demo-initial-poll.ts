import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { initialPollWindow } from '../ingestion/poll-rules';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { InitialPollsRepository } from './initial-polls.repository';

/** Demo data (seed.ts) only; never in production. */
@Injectable()
export class RecordDemoInitialPoll {
  constructor(private readonly runs: InitialPollsRepository) {}

  /** Records a stock's initial poll as completed (its announcements were seeded), replacing any run. */
  async recordCompleted(stock: StockProjectionEntity, found: number): Promise<void> {
    const { fromYear, toYear } = initialPollWindow(stock.announcementStartYear, new Date());
    await this.runs.save({
      stockId: stock.id,
      runId: randomUUID(),
      status: 'completed',
      fromYear,
      toYear,
      currentYear: toYear,
      found,
      startedAt: new Date(Date.now() - 60_000),
      completedAt: new Date(),
      error: null,
    });
  }
}
