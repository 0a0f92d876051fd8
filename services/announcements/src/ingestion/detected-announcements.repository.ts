import type { Tx } from '@irp/platform';
import type { AnnouncementOrigin } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';

/** A source item to store: its columns, the release time as ISO text and the document's URL (remote_path). */
export type DetectedAnnouncement = Pick<AnnouncementEntity, 'sourceKey' | 'headline' | 'priceSensitive'> & {
  releasedAt: string;
  documentUrl: string;
};

/** A stored announcement of the stock under a key the source reports again. */
export type KnownAnnouncement = Pick<
  AnnouncementEntity,
  'sourceKey' | 'headline' | 'headlineOriginal' | 'releasedAt'
>;

/** The announcements table as the pollers write it: stored once by natural key, then their documents. */
@Injectable()
export class DetectedAnnouncementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The stock's announcements stored under any of `sourceKeys` (on the caller's transaction when given). */
  async known(stockId: string, sourceKeys: string[], tx?: Tx): Promise<KnownAnnouncement[]> {
    return (tx ?? this.dataSource).query(
      `SELECT source_key AS "sourceKey", headline, headline_original AS "headlineOriginal", released_at AS "releasedAt"
       FROM announcements.announcements
       WHERE stock_id = $1 AND source_key = ANY($2::text[])`,
      [stockId, sourceKeys],
    );
  }

  /**
   * Inserts the rows not stored yet (ON CONFLICT DO NOTHING on the natural key) and returns those inserted,
   * oldest first. Any origin but `poll` is marked `not-automatic` at once.
   */
  async insertNew(
    tx: Tx,
    stockId: string,
    batch: readonly DetectedAnnouncement[],
    origin: AnnouncementOrigin,
  ): Promise<AnnouncementEntity[]> {
    const inserted: Array<{ id: string }> = await tx.query(
      `INSERT INTO announcements.announcements
         (stock_id, source_key, headline, released_at, price_sensitive, remote_path, file_status, origin, auto_send)
       SELECT $1::uuid, t.source_key, t.headline, t.released_at, t.price_sensitive, t.remote_path,
              CASE WHEN t.remote_path <> '' THEN 'pending' ELSE 'none' END, $2::text, $3::text
       FROM unnest($4::text[], $5::text[], $6::timestamptz[], $7::boolean[], $8::text[])
         AS t(source_key, headline, released_at, price_sensitive, remote_path)
       ON CONFLICT (stock_id, source_key) DO NOTHING
       RETURNING id`,
      [
        stockId,
        origin,
        origin === 'poll' ? null : 'not-automatic',
        batch.map((r) => r.sourceKey),
        batch.map((r) => r.headline),
        batch.map((r) => r.releasedAt),
        batch.map((r) => r.priceSensitive),
        batch.map((r) => r.documentUrl),
      ],
    );
    if (!inserted.length) return [];
    return tx.getRepository(AnnouncementEntity).find({
      where: { id: In(inserted.map((r) => r.id)) },
      order: { releasedAt: 'ASC' },
    });
  }

  /** The stock's announcements whose document is still to download, newest first. */
  async pendingDocuments(stockId: string): Promise<AnnouncementEntity[]> {
    return this.dataSource.getRepository(AnnouncementEntity).find({
      where: { stockId, fileStatus: 'pending' },
      order: { releasedAt: 'DESC' },
    });
  }

  /** Changes a row only while its document is still pending: another poller may have finished it meanwhile. */
  async updateIfPending(id: string, values: Partial<AnnouncementEntity>): Promise<void> {
    await this.dataSource.getRepository(AnnouncementEntity).update({ id, fileStatus: 'pending' }, values);
  }
}
