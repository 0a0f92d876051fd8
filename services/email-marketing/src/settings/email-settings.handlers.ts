import { HandleEvent, HandleRequest, HandledRequest } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ApplyOrderSettings } from './apply-order-settings';
import { EmailSettingsReads } from './email-settings-reads';
import { SaveEmailSettings } from './save-email-settings';

/** Kafka entry points of the settings; each calls its use case, the rules live in email-settings-rules.ts. */
@Controller()
export class EmailSettingsHandlers {
  constructor(
    private readonly reads: EmailSettingsReads,
    private readonly saving: SaveEmailSettings,
    private readonly applying: ApplyOrderSettings,
  ) {}

  @HandleRequest(Topics.EmailMarketingGetSettings)
  async get(@Payload() req: HandledRequest<typeof Topics.EmailMarketingGetSettings>) {
    return { stockId: req.stockId, settings: await this.reads.view(req.stockId) };
  }

  @HandleRequest(Topics.EmailMarketingSaveSettings)
  async save(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSaveSettings>) {
    return { stockId: req.stockId, settings: await this.saving.run(req.actor, req.stockId, req.settings) };
  }

  @HandleRequest(Topics.EmailMarketingDashboard)
  async dashboard(@Payload() req: HandledRequest<typeof Topics.EmailMarketingDashboard>) {
    return { stocks: await this.reads.dashboard(req.stockIds) };
  }

  @HandleEvent(Topics.ServiceOrderStockCreated)
  async orderStockCreated(@Payload() event: EventOf<typeof Topics.ServiceOrderStockCreated>) {
    await this.applying.run(event);
  }
}
