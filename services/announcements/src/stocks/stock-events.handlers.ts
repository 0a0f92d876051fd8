import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InitialPollService } from '../polling/initial-poll.service';
import { StockProjectionService } from './stock-projection.service';

/**
 * `stock.upserted` keeps the projection; a stock with Poll on whose initial poll is not complete gets one
 * (InitialPollService decides whether one is already under way). Ticker changes and archiving arrive as
 * `stock.upserted` too (the stocks service publishes the whole stock after each), so those are enough.
 */
@Controller()
export class StockEventsHandlers {
  constructor(
    private readonly projection: StockProjectionService,
    private readonly initialPolls: InitialPollService,
  ) {}

  @HandleEvent(Topics.StockUpserted)
  async upserted(@Payload() stock: EventOf<typeof Topics.StockUpserted>) {
    const applied = await this.projection.apply(stock);
    if (applied) await this.initialPolls.considerStock(applied);
  }
}
