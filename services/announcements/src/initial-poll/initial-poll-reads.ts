import { Injectable } from '@nestjs/common';
import type { InitialPollEntity } from './initial-poll.entity';
import { InitialPollsRepository } from './initial-polls.repository';

/**
 * What the rest of the service asks of initial polls. This folder alone keeps whether a stock's initial poll
 * completed: the scheduler polls a stock once its latest run has, and the gateway composes the Stock's
 * `completedInitialPoll` from `announcements.initial-poll-statuses` (nothing is sent back to the stocks service).
 */
@Injectable()
export class InitialPollReads {
  constructor(private readonly runs: InitialPollsRepository) {}

  /** The status of each stock's latest run; stocks without a run are left out. */
  async statusesOf(stockIds: readonly string[]): Promise<Record<string, InitialPollEntity['status']>> {
    if (!stockIds.length) return {};
    const rows = await this.runs.statuses(stockIds);
    return Object.fromEntries(rows.map((r) => [r.stockId, r.status]));
  }

  /** Whether the stock's latest run completed (what the polling rules call initialPollCompleted). */
  async completed(stockId: string): Promise<boolean> {
    return (await this.progressOf(stockId))?.status === 'completed';
  }

  /** The stock's latest run, if any. */
  progressOf(stockId: string): Promise<InitialPollEntity | null> {
    return this.runs.find(stockId);
  }
}
