import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PollService } from './poll.service';

/**
 * The poller role's poll work: `announcements.poll-requested` from the scheduler, and a market read's fan-out
 * on `announcements.market-items-listed` (in a consumer of its own: services/manifest.json `consumers`).
 * A long poll (a slow source, its retries) keeps its consumer alive: the platform heartbeats every handler.
 */
@Controller()
export class PollerHandlers {
  constructor(private readonly polls: PollService) {}

  @HandleEvent(Topics.AnnouncementsPollRequested)
  async pollRequested(@Payload() event: EventOf<typeof Topics.AnnouncementsPollRequested>) {
    await this.polls.handle(event);
  }

  @HandleEvent(Topics.AnnouncementsMarketItemsListed)
  async marketItemsListed(@Payload() event: EventOf<typeof Topics.AnnouncementsMarketItemsListed>) {
    await this.polls.listed(event);
  }
}
