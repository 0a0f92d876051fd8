import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ReadDeliverability } from './read-deliverability';

/** Kafka entry point of the deliverability panel's read. */
@Controller()
export class DeliverabilityHandlers {
  constructor(private readonly read: ReadDeliverability) {}

  @HandleRequest(Topics.EmailMarketingDeliverability)
  deliverability(@Payload() req: HandledRequest<typeof Topics.EmailMarketingDeliverability>) {
    return this.read.run(req);
  }
}
