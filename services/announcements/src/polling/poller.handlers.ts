import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { whileHeartbeating } from './heartbeat';
import { PollService } from './poll.service';

/** The poller role's poll work: `announcements.poll-requested` from the scheduler or a market fan-out. */
@Controller()
export class PollerHandlers {
  constructor(private readonly polls: PollService) {}

  @HandleEvent(Topics.AnnouncementsPollRequested)
  async pollRequested(
    @Payload() event: EventOf<typeof Topics.AnnouncementsPollRequested>,
    @Ctx() context: KafkaContext,
  ) {
    await whileHeartbeating(context, () => this.polls.handle(event));
  }
}
