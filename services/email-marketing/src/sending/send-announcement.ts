import { createLogger, Outbox, UnitOfWork } from '@irp/platform';
import { AnnouncementSendRequestedEvent, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { DeliverBatch } from './deliver-batch';
import { DeliveriesRepository } from './deliveries.repository';
import { DELIVERY_BATCH } from './delivery-rules';
import { SendAnnouncementCampaign } from './send-announcement-campaign';
import { announceBatches } from './send-expansion';
import { AnnouncementSendMessage } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('send-requests');

/**
 * Send announcement: turns `announcement.send-requested` into work: per channel, one send row (its request
 * key makes a redelivered request a no-op) and, for email, one delivery per confirmed subscriber, announced
 * to the sender group in batches through the outbox. The first batch is written with the send, the rest
 * (ExpandSendRest) on `email.send-expansion-requested`, added in the same transaction (docs/adr/0019), so
 * no delivery is ever left without its batch message, none is queued twice, and a large list's rows delay
 * neither the send's first mails nor the requests behind it. The send's first batch is also admitted here at
 * once, by the sender that expanded it (docs/adr/0016): a lane's topic is first come, first served, so at
 * reporting season a new send's first mails would otherwise wait behind every batch the sends before it
 * still have there; in the sender's lane it takes its turn with them. Its message, when it comes, claims
 * nothing (a claim skips deliveries a living sender holds), and if this admission fails the message is
 * still there.
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
    private readonly delivering: DeliverBatch,
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
      // Its first batch now and the rest in a message of its own (docs/adr/0019), so its first mails never
      // wait for a large list's rows, nor does the request behind it on this partition.
      const send = { sendId, stockId: event.stockId, priceSensitive: event.announcement.priceSensitive };
      const first = await this.deliveries.queueForSubscribers(tx, send, DELIVERY_BATCH);
      await announceBatches(this.outbox, tx, send, first, 0);
      const rest = first.length === DELIVERY_BATCH;
      if (rest) await this.outbox.add(tx, Topics.EmailSendExpansionRequested, sendId, send);
      else await this.sends.markExpanded(tx, sendId);
      if (!first.length) await this.sends.markDone(tx, sendId);
      return { state: 'queued' as const, sendId, first, rest };
    });
    const sendGuid = event.announcement.sendGuid;
    if (outcome.state === 'redelivered') {
      log.info({ stockId: event.stockId, sendGuid, ...outcome }, 'announcement send expanded');
      return;
    }
    const { first, ...expanded } = outcome;
    log.info(
      { stockId: event.stockId, sendGuid, ...expanded, deliveries: first.length },
      'announcement send expanded: its first batch',
    );
    if (first.length)
      await this.delivering.admit(outcome.sendId, first).catch((err: unknown) =>
        // Its batch message admits it instead.
        log.warn({ err, sendId: outcome.sendId }, "a send's first batch was not admitted at its expansion"),
      );
  }
}
