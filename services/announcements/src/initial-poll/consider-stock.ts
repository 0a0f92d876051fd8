import { Injectable } from '@nestjs/common';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { InitialPollsRepository } from './initial-polls.repository';
import { StartInitialPoll } from './start-initial-poll';

/**
 * Every changed stock of the projection is considered for an initial poll. It listens from its
 * construction, before any handler or job runs, so no change goes unheard.
 */
@Injectable()
export class ConsiderStock {
  constructor(
    private readonly runs: InitialPollsRepository,
    private readonly starting: StartInitialPoll,
    stocks: StockProjectionService,
  ) {
    stocks.onStockChanged((stock) => this.consider(stock));
  }

  /**
   * Polling off: the stock's run is forgotten (polling off counts as complete, and switching it on again
   * means a new initial poll, spec section 4). Polling on (and not archived): a run starts unless one is
   * under way or completed; a failed run is tried again when the stock changes after it failed.
   */
  async consider(stock: StockProjectionEntity): Promise<void> {
    if (!stock.pollAsx) {
      // A poller working on a forgotten run finds no row and stops (RunInitialPoll's "superseded").
      await this.runs.forget(stock.id);
      return;
    }
    if (stock.archived) return;
    await this.starting.start(stock, { supersede: false });
  }
}
