import { AppError, Outbox, UnitOfWork } from '@irp/platform';
import { Actor, ErrorCode, sendRequestTopicOf, splitEmailList, StoredAnnouncement, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { toAnnouncement } from '../stored-announcements/announcement.mapper';
import { bad, findAnnouncement } from './announcement-lookup';
import {
  AnnouncementRuleMessages,
  manualSendChannels,
  requireAdminForConfirmation,
  requireSendAnnouncements,
  tickerOf,
} from './announcement-rules';
import { AnnouncementsRepository } from './announcements.repository';

type AnnouncementRef = { actor: Actor; combinedTicker: string; sendGuid: string };

/**
 * Sending (spec sections 3 and 4): manual and confirmation sends requested through the outbox, so a send is
 * requested exactly when the row says it was. What went out is the email-marketing service's to record
 * (docs/adr/0013): nothing it publishes is written back here.
 */
@Injectable()
export class SendAnnouncementService {
  constructor(
    private readonly announcements: AnnouncementsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
  ) {}

  /**
   * Requests a manual send. The row is locked, so of two sends at once without override exactly one is
   * requested and the other is told the announcement was already sent. "Already sent" is a send requested
   * before: every send, manual or automatic, stamps send_requested_at, and the migration
   * SentBecomesSendRequested stamped the rows marked sent before sends were recorded.
   */
  async send(req: AnnouncementRef & { override: boolean }): Promise<StoredAnnouncement> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    requireSendAnnouncements(req.actor, stock);
    return this.units.run(async (m) => {
      const e = await findAnnouncement(this.announcements, m, stock.id, req.sendGuid, true);
      if (e.deletedOn) throw bad(AnnouncementRuleMessages.deletedNotSent);
      if (e.sendRequestedAt && !req.override)
        throw new AppError(ErrorCode.Conflict, AnnouncementRuleMessages.alreadySent);
      const channels = manualSendChannels(stock, e.priceSensitive, tickerOf(stock));
      const now = new Date();
      await this.announcements.update(m, e.id, { sendRequestedAt: now, updatedAt: now });
      const announcement = toAnnouncement({ ...e, sendRequestedAt: now, updatedAt: now });
      await this.outbox.add(m, sendRequestTopicOf(e), stock.id, {
        requestId: randomUUID(),
        stockId: stock.id,
        combinedTicker: stock.combinedTicker,
        channels,
        override: req.override,
        auto: false,
        requestedBy: req.actor.username,
        requestedAt: now.toISOString(),
        announcement,
      });
      return announcement;
    });
  }

  /** Send Confirmation Email (admin): the announcement to the stock's confirmation emails. */
  async sendConfirmation(
    req: AnnouncementRef,
  ): Promise<{ announcement: StoredAnnouncement; recipients: string[] }> {
    requireAdminForConfirmation(req.actor);
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    const recipients = splitEmailList(stock.confirmationEmail);
    if (!recipients.length) throw bad(AnnouncementRuleMessages.noConfirmationEmails(tickerOf(stock)));
    return this.units.run(async (m) => {
      const e = await findAnnouncement(this.announcements, m, stock.id, req.sendGuid);
      const announcement = toAnnouncement(e);
      await this.outbox.add(m, Topics.AnnouncementConfirmationRequested, stock.id, {
        requestId: randomUUID(),
        stockId: stock.id,
        combinedTicker: stock.combinedTicker,
        recipients,
        requestedBy: req.actor.username,
        requestedAt: new Date().toISOString(),
        announcement,
      });
      return { announcement, recipients };
    });
  }
}
