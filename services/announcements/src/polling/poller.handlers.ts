import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PollService } from './poll.service';

/** The poller role's poll work: `announcements.poll-requested` from the scheduler or a market fan-out. */
@Controller()
export class PollerHandlers {
  constructor(private readonly polls: PollService) {}

  @HandleEvent(Topics.AnnouncementsPollRequested)
  async pollRequested(@Payload() event: EventOf<typeof Topics.AnnouncementsPollRequested>) {
    // A long poll (a slow source, its retries) keeps its consumer alive: the platform heartbeats every handler.
    await this.polls.handle(event);
  }
}
