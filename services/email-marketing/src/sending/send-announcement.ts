import { createLogger, Outbox, UnitOfWork } from '@irp/platform';
import { AnnouncementSendRequestedEvent } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { DeliveriesRepository } from './deliveries.repository';
import { batchKey, batchTopicOf, DELIVERY_BATCH, laneOf } from './delivery-rules';
import { SendAnnouncementCampaign } from './send-announcement-campaign';
import { AnnouncementSendMessage, chunks } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('send-requests');

/**
 * Send announcement: turns `announcement.send-requested` into work: per channel, one send row (its request
 * key makes a redelivered request a no-op) and, for email, one delivery per confirmed subscriber, announced
 * to the sender group in batches through the outbox in the same transaction (so no delivery is ever left
 * without its batch message, and none is queued twice).
 */
@Injectable()
export class SendAnnouncement {
  constructor(
    private readonly sends: SendsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
    private readonly campaigns: SendAnnouncementCampaign,
  ) {}

  async run(event: AnnouncementSendRequestedEvent): Promise<void> {
    const stock = await this.stocks.get(event.stockId);
    const message: AnnouncementSendMessage = {
      kind: 'announcement',
      stock: {
        ticker: stock.ticker,
        exchange: stock.exchange,
        companyName: stock.companyName,
        companyLogoUrl: stock.companyLogoUrl,
      },
      announcement: event.announcement,
    };
    for (const channel of event.channels) {
      if (channel === 'email') await this.expandEmail(event, message);
      else await this.campaigns.run(event, message);
    }
  }

  private async expandEmail(event: AnnouncementSendRequestedEvent, message: AnnouncementSendMessage) {
    const outcome = await this.units.run(async (tx) => {
      const sendId = await this.sends.insertAnnouncement(event, 'email', message, tx);
      if (!sendId) return { state: 'redelivered' as const };
      // An automatic send was decided by the announcements service, the one owner of the auto-send rules
      // and limits (it holds the settings and counts each stock's automatic sends): sent as asked.
      const deliveries = await this.deliveries.queueForSubscribers(tx, sendId, event.stockId);
      if (!deliveries.length) await this.sends.markDone(tx, sendId);
      // A price-sensitive announcement's batches go on the priority lane's topic (docs/adr/0016).
      const topic = batchTopicOf(laneOf(event.announcement));
      for (const [i, deliveryIds] of chunks(deliveries, DELIVERY_BATCH).entries()) {
        await this.outbox.add(tx, topic, batchKey(sendId, i), {
          sendId,
          stockId: event.stockId,
          deliveryIds,
        });
      }
      return { state: 'queued' as const, sendId, deliveries: deliveries.length };
    });
    log.info(
      { stockId: event.stockId, sendGuid: event.announcement.sendGuid, ...outcome },
      'announcement send expanded',
    );
  }
}
