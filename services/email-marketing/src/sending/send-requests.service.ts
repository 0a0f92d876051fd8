import { createLogger, Outbox } from '@irp/platform';
import { AnnouncementSendRequestedEvent, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionService } from '../stocks/stock-projection.service';
import { CampaignSender } from './campaign-sender';
import { AnnouncementSendMessage, chunks } from './send-message';

const log = createLogger('send-requests');

/** Deliveries per `email.deliveries-queued` message: the unit of work a sender instance takes. */
export const DELIVERY_BATCH = 250;

/**
 * Turns `announcement.send-requested` into work: per channel, one send row (its request key makes a
 * redelivered request a no-op) and, for email, one delivery per confirmed subscriber, announced to the
 * sender group in batches through the outbox in the same transaction (so no delivery is ever left without
 * its batch message, and none is queued twice).
 */
@Injectable()
export class SendRequestsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
    private readonly campaigns: CampaignSender,
  ) {}

  async handle(event: AnnouncementSendRequestedEvent): Promise<void> {
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
      else await this.campaigns.sendAnnouncement(event, message);
    }
  }

  private async expandEmail(event: AnnouncementSendRequestedEvent, message: AnnouncementSendMessage) {
    const outcome = await this.dataSource.transaction(async (m) => {
      const [send]: Array<{ id: string }> = await m.query(
        `INSERT INTO email_marketing.sends (request_key, kind, channel, stock_id, send_guid, auto, status, message,
           released_at, requested_at)
         VALUES ($1, 'announcement', 'email', $2, $3, $4, 'sending', $5, $6, $7)
         ON CONFLICT (request_key) DO NOTHING RETURNING id`,
        [
          `announcement:${event.requestId}:email`,
          event.stockId,
          event.announcement.sendGuid,
          event.auto,
          JSON.stringify(message),
          event.announcement.date,
          event.requestedAt,
        ],
      );
      // An automatic send was decided by the announcements service, the one owner of the auto-send rules
      // and limits (it holds the settings and counts each stock's automatic sends): sent as asked.
      if (!send) return { state: 'redelivered' as const };
      const deliveries: Array<{ id: string }> = await m.query(
        `INSERT INTO email_marketing.deliveries (send_id, subscriber_id, email)
         SELECT $1, s.id, s.email FROM email_marketing.subscribers s
         WHERE s.stock_id = $2 AND s.status = 'confirmed'
         ORDER BY s.id
         ON CONFLICT (send_id, email) DO NOTHING
         RETURNING id`,
        [send.id, event.stockId],
      );
      if (!deliveries.length) {
        await m.query(`UPDATE email_marketing.sends SET status = 'done' WHERE id = $1`, [send.id]);
      }
      const batches = chunks(
        deliveries.map((d) => d.id),
        DELIVERY_BATCH,
      );
      // Keyed per batch, not per send: a large send's batches spread over every sender's partitions.
      for (const [i, deliveryIds] of batches.entries()) {
        await this.outbox.add(m, Topics.EmailDeliveriesQueued, `${send.id}:${i}`, {
          sendId: send.id,
          stockId: event.stockId,
          deliveryIds,
        });
      }
      return { state: 'queued' as const, sendId: send.id, deliveries: deliveries.length };
    });
    log.info(
      { stockId: event.stockId, sendGuid: event.announcement.sendGuid, ...outcome },
      'announcement send expanded',
    );
  }
}
