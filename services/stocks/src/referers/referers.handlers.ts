import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ReferersService } from './referers.service';

@Controller()
export class ReferersHandlers {
  constructor(private readonly referers: ReferersService) {}

  @HandleRequest(Topics.StocksReferers)
  forStock(@Payload() req: HandledRequest<typeof Topics.StocksReferers>) {
    return this.referers.forStock(req.combinedTicker);
  }

  @HandleRequest(Topics.StocksAllReferers)
  async all() {
    return { stocks: await this.referers.all() };
  }

  @HandleRequest(Topics.StocksWidgetLookup)
  widgetLookup(@Payload() req: HandledRequest<typeof Topics.StocksWidgetLookup>) {
    return this.referers.widgetLookup(req.apiKey, req.referer);
  }
}
