import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { DeliverBatch, TopicValve } from './deliver-batch';
import { SendAnnouncement } from './send-announcement';
import { ExpandSendRest } from './send-expansion';

/** Pauses and resumes the topic a batch message came from, on the consumer that fetched it. */
const valveOf = (context: KafkaContext): TopicValve => {
  const topics = [{ topic: context.getTopic() }];
  return {
    pause: () => context.getConsumer().pause(topics),
    resume: () => context.getConsumer().resume(topics),
  };
};

/**
 * The `sender` role (any number of instances): announcement sends expanded into deliveries (the requests
 * and the rest of a send's deliveries in consumers of their own, services/manifest.json `consumers`:
 * docs/adr/0018, 0019), and delivery batches admitted to the sender's lanes (the priority topic's to the
 * priority lane); each handler calls its use case. The other mails other services ask for are fixed-mails/'s.
 */
@Controller()
export class SenderHandlers {
  constructor(
    private readonly sending: SendAnnouncement,
    private readonly expanding: ExpandSendRest,
    private readonly delivering: DeliverBatch,
  ) {}

  @HandleEvent(Topics.AnnouncementSendRequested)
  async sendRequested(@Payload() event: EventOf<typeof Topics.AnnouncementSendRequested>) {
    await this.sending.run(event);
  }

  /** A price-sensitive announcement's send request, on its own topic and consumer (docs/adr/0018). */
  @HandleEvent(Topics.AnnouncementPrioritySendRequested)
  async prioritySendRequested(@Payload() event: EventOf<typeof Topics.AnnouncementPrioritySendRequested>) {
    await this.sending.run(event);
  }

  /** The rest of a send's deliveries after its first batch, in a consumer of its own (docs/adr/0019). */
  @HandleEvent(Topics.EmailSendExpansionRequested)
  async sendExpansionRequested(@Payload() event: EventOf<typeof Topics.EmailSendExpansionRequested>) {
    await this.expanding.run(event);
  }

  @HandleEvent(Topics.EmailPriorityDeliveriesQueued)
  async priorityDeliveriesQueued(
    @Payload() event: EventOf<typeof Topics.EmailPriorityDeliveriesQueued>,
    @Ctx() context: KafkaContext,
  ) {
    await this.delivering.admit(event.sendId, event.deliveryIds, valveOf(context));
  }

  @HandleEvent(Topics.EmailDeliveriesQueued)
  async deliveriesQueued(
    @Payload() event: EventOf<typeof Topics.EmailDeliveriesQueued>,
    @Ctx() context: KafkaContext,
  ) {
    await this.delivering.admit(event.sendId, event.deliveryIds, valveOf(context));
  }
}
