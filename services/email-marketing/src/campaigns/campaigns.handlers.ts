import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CountListSubscribers } from './count-list-subscribers';
import { SendTestCampaign } from './send-test-campaign';

/** The Email Marketing tab's calls to the stock's provider; each calls its use case. */
@Controller()
export class CampaignsHandlers {
  constructor(
    private readonly counting: CountListSubscribers,
    private readonly testSends: SendTestCampaign,
  ) {}

  @HandleRequest(Topics.EmailMarketingSubscriberCount)
  async subscriberCount(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscriberCount>) {
    return { count: await this.counting.run(req) };
  }

  @HandleRequest(Topics.EmailMarketingTestSend)
  async testSend(@Payload() req: HandledRequest<typeof Topics.EmailMarketingTestSend>) {
    return this.testSends.run(req);
  }
}
