import { sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AnnouncementEntity } from './announcement.entity';

/** An announcement as the announcements service sends it (`date`: its release time, ISO). */
type SentAnnouncement = Pick<AnnouncementEntity, 'id' | 'stockId' | 'headline' | 'priceSensitive'> & {
  date: string;
};

/**
 * The announcement days of this service's reports: what `announcement.detected` carries (stock, release
 * time, headline, price-sensitive), kept so a report never asks the announcements service. Idempotent by
 * the announcement id (a redelivered event writes the same row).
 */
@Injectable()
export class AnnouncementProjectionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsert(a: SentAnnouncement): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO reports.announcements (id, stock_id, released_at, day, headline, price_sensitive)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET released_at = EXCLUDED.released_at, day = EXCLUDED.day,
         headline = EXCLUDED.headline, price_sensitive = EXCLUDED.price_sensitive`,
      [a.id, a.stockId, a.date, sydneyDayOf(new Date(a.date)), a.headline, a.priceSensitive],
    );
  }

  /**
   * The announcements service's answer for some stocks: each announcement upserted, deleted ones removed.
   * One statement each way. How many rows were written or removed.
   */
  async apply(rows: ReadonlyArray<SentAnnouncement & { deleted: boolean }>): Promise<number> {
    const kept = rows.filter((r) => !r.deleted);
    const deleted = rows.filter((r) => r.deleted).map((r) => r.id);
    let changed = 0;
    if (kept.length) {
      const result = await this.dataSource.query<Array<Pick<AnnouncementEntity, 'id'>>>(
        `INSERT INTO reports.announcements (id, stock_id, released_at, day, headline, price_sensitive)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::date[], $5::text[], $6::boolean[])
         ON CONFLICT (id) DO UPDATE SET released_at = EXCLUDED.released_at, day = EXCLUDED.day,
           headline = EXCLUDED.headline, price_sensitive = EXCLUDED.price_sensitive
         WHERE (reports.announcements.released_at, reports.announcements.headline, reports.announcements.price_sensitive)
           IS DISTINCT FROM (EXCLUDED.released_at, EXCLUDED.headline, EXCLUDED.price_sensitive)
         RETURNING id`,
        [
          kept.map((r) => r.id),
          kept.map((r) => r.stockId),
          kept.map((r) => r.date),
          kept.map((r) => sydneyDayOf(new Date(r.date))),
          kept.map((r) => r.headline),
          kept.map((r) => r.priceSensitive),
        ],
      );
      changed += result.length;
    }
    if (deleted.length) {
      const [, count] = await this.dataSource.query<[unknown, number]>(
        `DELETE FROM reports.announcements WHERE id = ANY($1::uuid[])`,
        [deleted],
      );
      changed += count;
    }
    return changed;
  }
}
