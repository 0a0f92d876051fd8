import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConfirmSubscription } from './confirm-subscription';
import { SavePreferences } from './save-preferences';
import { Subscribe } from './subscribe';
import { SubscriberReads } from './subscriber-reads';
import { Unsubscribe } from './unsubscribe';

/** Kafka entry points of subscriptions; each calls its use case, the rules live in subscription-rules.ts. */
@Controller()
export class SubscribersHandlers {
  constructor(
    private readonly subscribing: Subscribe,
    private readonly confirming: ConfirmSubscription,
    private readonly unsubscribing: Unsubscribe,
    private readonly reads: SubscriberReads,
    private readonly preferences: SavePreferences,
  ) {}

  @HandleRequest(Topics.EmailMarketingSubscribe)
  subscribe(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscribe>) {
    return this.subscribing.run(req);
  }

  @HandleRequest(Topics.EmailMarketingConfirmSubscription)
  confirm(@Payload() req: HandledRequest<typeof Topics.EmailMarketingConfirmSubscription>) {
    return this.confirming.run(req.token);
  }

  @HandleRequest(Topics.EmailMarketingSubscription)
  subscription(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscription>) {
    return this.reads.byUnsubscribeToken(req.token);
  }

  @HandleRequest(Topics.EmailMarketingUnsubscribe)
  unsubscribe(@Payload() req: HandledRequest<typeof Topics.EmailMarketingUnsubscribe>) {
    return this.unsubscribing.run(req.token);
  }

  @HandleRequest(Topics.EmailMarketingSavePreferences)
  savePreferences(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSavePreferences>) {
    return this.preferences.run(req);
  }

  @HandleRequest(Topics.EmailMarketingSubscribers)
  list(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscribers>) {
    return this.reads.list(req.stockId, { limit: req.limit, after: req.after });
  }
}
