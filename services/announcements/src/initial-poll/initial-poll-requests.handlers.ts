import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InitialPollReads } from './initial-poll-reads';
import { ResyncStock } from './resync-stock';

/** Resync (api role): an admin starts a stock's initial poll again; and the latest runs' statuses. */
@Controller()
export class InitialPollRequestHandlers {
  constructor(
    private readonly resyncing: ResyncStock,
    private readonly reads: InitialPollReads,
  ) {}

  @HandleRequest(Topics.AnnouncementsResync)
  async resync(@Payload() req: HandledRequest<typeof Topics.AnnouncementsResync>) {
    return { initialPoll: await this.resyncing.resync(req.actor, req.combinedTicker) };
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
