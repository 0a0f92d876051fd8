import { SERVICE_CONFIG } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { confirmationMail } from '../mail/templates';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { QueueMail } from './queue-mail';

/** Send Confirmation Email: the announcement to the stock's confirmation emails. */
@Injectable()
export class SendConfirmationEmail {
  constructor(
    private readonly queue: QueueMail,
    private readonly stocks: StockProjectionService,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async run(event: EventOf<typeof Topics.AnnouncementConfirmationRequested>): Promise<void> {
    const stock = await this.stocks.get(event.stockId);
    await this.queue.run({
      requestKey: `confirmation:${event.requestId}`,
      kind: 'confirmation',
      stockId: stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients: event.recipients,
      content: confirmationMail({
        stock,
        announcement: event.announcement,
        publicBaseUrl: this.config.PUBLIC_BASE_URL,
      }),
    });
  }
}
