import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ReadSendHistory } from './read-send-history';

/** The `api` role's answer of who was mailed each announcement of a stock. */
@Controller()
export class SendHistoryHandlers {
  constructor(private readonly history: ReadSendHistory) {}

  @HandleRequest(Topics.EmailMarketingSendHistory)
  async sendHistory(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSendHistory>) {
    return this.history.run(req);
  }
}
