import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { SubscribersService } from './subscribers.service';

@Controller()
export class SubscribersHandlers {
  constructor(private readonly subscribers: SubscribersService) {}

  @HandleRequest(Topics.EmailMarketingSubscribe)
  subscribe(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscribe>) {
    return this.subscribers.subscribe(req);
  }

  @HandleRequest(Topics.EmailMarketingConfirmSubscription)
  confirm(@Payload() req: HandledRequest<typeof Topics.EmailMarketingConfirmSubscription>) {
    return this.subscribers.confirm(req.token);
  }

  @HandleRequest(Topics.EmailMarketingSubscription)
  subscription(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscription>) {
    return this.subscribers.byUnsubscribeToken(req.token);
  }

  @HandleRequest(Topics.EmailMarketingUnsubscribe)
  unsubscribe(@Payload() req: HandledRequest<typeof Topics.EmailMarketingUnsubscribe>) {
    return this.subscribers.unsubscribe(req.token);
  }

  @HandleRequest(Topics.EmailMarketingSubscribers)
  list(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscribers>) {
    return this.subscribers.list(req.stockId);
  }
}
