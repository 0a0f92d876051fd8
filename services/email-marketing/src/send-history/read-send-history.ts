import type { HandledRequest } from '@irp/platform';
import type { SendHistoryReply, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SendsRepository } from '../sending/sends.repository';
import { deliveryStates } from './send-history-rules';

/**
 * Who was mailed a stock's announcements (docs/adr/0013): this service's sends and deliveries are the one
 * record of it, which the gateway composes into every announcement it answers.
 */
@Injectable()
export class ReadSendHistory {
  constructor(private readonly sends: SendsRepository) {}

  async run(req: HandledRequest<typeof Topics.EmailMarketingSendHistory>): Promise<SendHistoryReply> {
    if (req.sendGuids?.length === 0) return { announcements: [] };
    return { announcements: deliveryStates(await this.sends.history(req.stockId, req.sendGuids ?? null)) };
  }
}
