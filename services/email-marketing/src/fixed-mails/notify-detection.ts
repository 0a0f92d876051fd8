import { SERVICE_CONFIG } from '@irp/platform';
import { EventOf, splitEmailList, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { notificationMail } from '../mail/templates';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { QueueMail } from './queue-mail';

/** A polled announcement was detected: the company's announcement notification emails hear of it. */
@Injectable()
export class NotifyDetection {
  constructor(
    private readonly queue: QueueMail,
    private readonly stocks: StockProjectionService,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async run(event: EventOf<typeof Topics.AnnouncementDetected>): Promise<void> {
    // Initial polls, resyncs and reconciles store history, not news: nobody is told of those.
    if (event.origin !== 'poll') return;
    const stock = await this.stocks.byId(event.stockId);
    const recipients = splitEmailList(stock?.announcementNotificationEmails);
    if (!stock || !recipients.length) return;
    await this.queue.run({
      requestKey: `notification:${event.announcement.id}`,
      kind: 'notification',
      stockId: stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients,
      content: notificationMail({
        stock,
        announcement: event.announcement,
        publicBaseUrl: this.config.PUBLIC_BASE_URL,
        stockPageUrl: `${this.config.PUBLIC_BASE_URL}/client-stocks/${encodeURIComponent(stock.combinedTicker)}`,
      }),
    });
  }
}
