import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { AutoSendService } from './auto-send.service';
import { whileHeartbeating } from './heartbeat';
import { retryWhileDatabaseDown } from './retry';

/** The poller role decides automatic sends of what the pollers detected (consumer group `announcements.poller`). */
@Controller()
export class AutoSendHandlers {
  constructor(private readonly autoSend: AutoSendService) {}

  @HandleEvent(Topics.AnnouncementDetected)
  async detected(
    @Payload() event: EventOf<typeof Topics.AnnouncementDetected>,
    @Ctx() context: KafkaContext,
  ) {
    await whileHeartbeating(context, () =>
      retryWhileDatabaseDown(`auto-send ${event.announcement.sendGuid}`, () => this.autoSend.decide(event)),
    );
  }
}
