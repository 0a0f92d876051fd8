import { AppError, HandleRequest, HandledRequest } from '@irp/platform';
import { isAdmin, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { toInitialPollProgress } from './initial-poll.mapper';
import { InitialPollReads } from './initial-poll-reads';
import { StartInitialPoll } from './start-initial-poll';

/** Resync (api role): an admin starts a stock's initial poll again; and the latest runs' statuses. */
@Controller()
export class InitialPollRequestHandlers {
  constructor(
    private readonly starting: StartInitialPoll,
    private readonly reads: InitialPollReads,
    private readonly stocks: StockProjectionService,
  ) {}

  /**
   * A new run even when the stock's initial poll completed, superseding one under way. Storing is by
   * natural key, so a resync stores only what is missing and sends nothing.
   */
  @HandleRequest(Topics.AnnouncementsResync)
  async resync(@Payload() req: HandledRequest<typeof Topics.AnnouncementsResync>) {
    if (!isAdmin(req.actor)) throw new AppError('FORBIDDEN', 'Only admins may resync a stock');
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    const run = await this.starting.start(stock, { supersede: true });
    if (!run) throw new AppError('INTERNAL', `The resync of ${stock.combinedTicker} did not start`);
    return { initialPoll: toInitialPollProgress(run) };
  }

  /**
   * The latest run's status of many stocks at once: the gateway composes the Stock's completedInitialPoll
   * from it (any signed-in caller's pages carry that field, so no role is asked here).
   */
  @HandleRequest(Topics.AnnouncementsInitialPollStatuses)
  async statuses(@Payload() req: HandledRequest<typeof Topics.AnnouncementsInitialPollStatuses>) {
    return { statuses: await this.reads.statusesOf(req.stockIds) };
  }
}
