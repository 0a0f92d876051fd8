import { WidgetAnnouncement } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { notFound } from './announcement-lookup';
import { toWidgetAnnouncement } from './announcement-views';
import { AnnouncementsRepository } from './announcements.repository';

/** The widget shows a company's latest announcements; older ones are on the exchange's site. */
const WIDGET_LIST_LIMIT = 100;

/** The widget's list of a stock's announcements and the hits of each opening (spec section 5). */
@Injectable()
export class WidgetService {
  constructor(private readonly announcements: AnnouncementsRepository) {}

  /**
   * The widget's list: not deleted, newest first, none dated in the future (a date typed ahead of a release
   * must not publish it early on the company's website).
   */
  async widgetList(stockId: string): Promise<WidgetAnnouncement[]> {
    const rows = await this.announcements.ofStock(stockId, {
      limit: WIDGET_LIST_LIMIT,
      releasedBy: new Date(),
    });
    return rows.map(toWidgetAnnouncement);
  }

  /** The widget opened an announcement: one more hit, counted in one statement so no opening is lost. */
  async widgetOpen(stockId: string, sendGuid: string): Promise<WidgetAnnouncement> {
    const hit = await this.announcements.countHit(stockId, sendGuid);
    if (!hit) throw notFound(sendGuid);
    const e = await this.announcements.byId(hit.id);
    // The count this opening made, even if another opening has counted since.
    return { ...toWidgetAnnouncement(e), hits: hit.hits };
  }
}
