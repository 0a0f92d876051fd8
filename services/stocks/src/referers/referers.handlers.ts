import { RequestOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ReferersService } from './referers.service';

@Controller()
export class ReferersHandlers {
  constructor(private readonly referers: ReferersService) {}

  @MessagePattern(Topics.StocksReferers)
  forStock(@Payload() req: RequestOf<typeof Topics.StocksReferers>) {
    return this.referers.forStock(req.combinedTicker);
  }

  @MessagePattern(Topics.StocksAllReferers)
  async all() {
    return { stocks: await this.referers.all() };
  }

  @MessagePattern(Topics.StocksWidgetLookup)
  widgetLookup(@Payload() req: RequestOf<typeof Topics.StocksWidgetLookup>) {
    return this.referers.widgetLookup(req.apiKey, req.referer);
  }
}
