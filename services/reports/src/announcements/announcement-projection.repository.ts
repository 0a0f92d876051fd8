import { sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The announcement days of this service's reports: what `announcement.detected` carries (stock, release
 * time, headline, price-sensitive), kept so a report never asks the announcements service. Idempotent by
 * the announcement id (a redelivered event writes the same row).
 */
@Injectable()
export class AnnouncementProjectionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsert(a: {
    id: string;
    stockId: string;
    date: string;
    headline: string;
    priceSensitive: boolean;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO reports.announcements (id, stock_id, released_at, day, headline, price_sensitive)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET released_at = EXCLUDED.released_at, day = EXCLUDED.day,
         headline = EXCLUDED.headline, price_sensitive = EXCLUDED.price_sensitive`,
      [a.id, a.stockId, a.date, sydneyDayOf(new Date(a.date)), a.headline, a.priceSensitive],
    );
  }
}
