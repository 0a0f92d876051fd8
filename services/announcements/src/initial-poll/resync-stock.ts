import { AppError } from '@irp/platform';
import { Actor, InitialPollProgress, isAdmin } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { toInitialPollProgress } from './initial-poll.mapper';
import { StartInitialPoll } from './start-initial-poll';

/** An admin starts a stock's initial poll again (a resync). */
@Injectable()
export class ResyncStock {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly starting: StartInitialPoll,
  ) {}

  /**
   * A new run even when the stock's initial poll completed, superseding one under way. Storing is by
   * natural key, so a resync stores only what is missing and sends nothing.
   */
  async resync(actor: Actor, combinedTicker: string): Promise<InitialPollProgress> {
    if (!isAdmin(actor)) throw new AppError('FORBIDDEN', 'Only admins may resync a stock');
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const run = await this.starting.start(stock, { supersede: true });
    if (!run) throw new AppError('INTERNAL', `The resync of ${stock.combinedTicker} did not start`);
    return toInitialPollProgress(run);
  }
}
