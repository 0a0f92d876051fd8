import { UnitOfWork } from '@irp/platform';
import { Actor, StoredAnnouncement } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { toAnnouncement } from '../stored-announcements/announcement.mapper';
import { bad, findAnnouncement } from './announcement-lookup';
import { AnnouncementRuleMessages, requireEditAnnouncements } from './announcement-rules';
import { AnnouncementsRepository } from './announcements.repository';

type AnnouncementRef = { actor: Actor; combinedTicker: string; sendGuid: string };

/** Deleting an announcement (spec section 2). */
@Injectable()
export class DeleteAnnouncementService {
  constructor(
    private readonly announcements: AnnouncementsRepository,
    private readonly units: UnitOfWork,
    private readonly stocks: StockProjectionService,
  ) {}

  /** Deleting keeps the row (shown struck through); deleting it again is refused. */
  async delete(req: AnnouncementRef): Promise<StoredAnnouncement> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    requireEditAnnouncements(req.actor, stock);
    return this.units.run(async (m) => {
      const e = await findAnnouncement(this.announcements, m, stock.id, req.sendGuid, true);
      if (e.deletedOn) throw bad(AnnouncementRuleMessages.alreadyDeleted);
      const now = new Date();
      await this.announcements.update(m, e.id, { deletedOn: now, updatedAt: now });
      return toAnnouncement(await this.announcements.byId(e.id, m));
    });
  }
}
