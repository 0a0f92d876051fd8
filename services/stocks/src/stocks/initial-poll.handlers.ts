import { EventOf, Topics } from '@irp/proto';
import { HandleEvent } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { StocksService } from './stocks.service';

/** The announcements service's initial-poll events, which keep `completedInitialPoll`. */
@Controller()
export class InitialPollHandlers {
  constructor(private readonly stocks: StocksService) {}

  @HandleEvent(Topics.InitialPollStarted)
  started(@Payload() event: EventOf<typeof Topics.InitialPollStarted>) {
    return this.stocks.applyInitialPoll('started', event);
  }

  @HandleEvent(Topics.InitialPollCompleted)
  completed(@Payload() event: EventOf<typeof Topics.InitialPollCompleted>) {
    return this.stocks.applyInitialPoll('completed', event);
  }
}
