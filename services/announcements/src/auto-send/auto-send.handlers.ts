import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AutoSendService } from './auto-send.service';

/**
 * The poller role decides automatic sends of what the pollers detected (consumer group `announcements.poller`):
 * the poll that stored an announcement decides it at once (AutoSendService.decideStored); this event decides
 * what that poll did not (it died in between, or the database failed there) and finds the rest decided. A
 * database outage is ridden out by the platform's handler retry policy (the decision is idempotent).
 */
@Controller()
export class AutoSendHandlers {
  constructor(private readonly autoSend: AutoSendService) {}

  @HandleEvent(Topics.AnnouncementDetected)
  async detected(@Payload() event: EventOf<typeof Topics.AnnouncementDetected>) {
    await this.autoSend.decide(event);
  }
}
