import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An announcement as the reports need it (the announcements service's `announcement.detected` and
 * `announcements.headlines`): its stock, release time, Sydney day, headline and whether it is price
 * sensitive (trade analysis, the pre-release flag).
 */
@Entity({ name: 'announcements' })
export class AnnouncementEntity {
  /** The announcements service's id (idempotent upserts). */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ name: 'released_at', type: 'timestamptz' })
  releasedAt!: Date;

  /** The Sydney day of released_at. */
  @Column({ type: 'date' })
  day!: string;

  @Column({ type: 'text' })
  headline!: string;

  @Column({ name: 'price_sensitive', type: 'boolean' })
  priceSensitive!: boolean;
}
