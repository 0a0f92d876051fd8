import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeliverBatch } from './deliver-batch';
import { SendAnnouncement } from './send-announcement';

/**
 * The `sender` role (a consumer group; any number of instances): announcement sends expanded into
 * deliveries, and delivery batches sent; each handler calls its use case. The other mails other services
 * ask for are fixed-mails/'s.
 */
@Controller()
export class SenderHandlers {
  constructor(
    private readonly sending: SendAnnouncement,
    private readonly delivering: DeliverBatch,
  ) {}

  @HandleEvent(Topics.AnnouncementSendRequested)
  async sendRequested(@Payload() event: EventOf<typeof Topics.AnnouncementSendRequested>) {
    await this.sending.run(event);
  }

  @HandleEvent(Topics.EmailDeliveriesQueued)
  async deliveriesQueued(@Payload() event: EventOf<typeof Topics.EmailDeliveriesQueued>) {
    await this.delivering.run(event.sendId, event.deliveryIds);
  }
}
