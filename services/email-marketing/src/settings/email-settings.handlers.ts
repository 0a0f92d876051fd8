import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CampaignSender } from '../sending/campaign-sender';
import { EmailSettingsService } from './email-settings.service';

@Controller()
export class EmailSettingsHandlers {
  constructor(
    private readonly settings: EmailSettingsService,
    private readonly campaigns: CampaignSender,
  ) {}

  @HandleRequest(Topics.EmailMarketingGetSettings)
  async get(@Payload() req: HandledRequest<typeof Topics.EmailMarketingGetSettings>) {
    return { stockId: req.stockId, settings: await this.settings.view(req.stockId) };
  }

  @HandleRequest(Topics.EmailMarketingSaveSettings)
  async save(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSaveSettings>) {
    return { stockId: req.stockId, settings: await this.settings.save(req.actor, req.stockId, req.settings) };
  }

  @HandleRequest(Topics.EmailMarketingDashboard)
  async dashboard(@Payload() req: HandledRequest<typeof Topics.EmailMarketingDashboard>) {
    return { stocks: await this.settings.dashboard(req.stockIds) };
  }

  @HandleRequest(Topics.EmailMarketingSubscriberCount)
  async subscriberCount(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSubscriberCount>) {
    return { count: await this.campaigns.subscriberCount(req) };
  }

  @HandleRequest(Topics.EmailMarketingTestSend)
  async testSend(@Payload() req: HandledRequest<typeof Topics.EmailMarketingTestSend>) {
    return this.campaigns.testSend(req);
  }
}
