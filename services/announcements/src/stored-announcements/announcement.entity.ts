import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AnnouncementOrigin, AutoSendState } from '@irp/proto';

/** Whether the announcement's document is stored: `pending` until a poller has downloaded it. */
export type FileStatus = 'none' | 'pending' | 'stored' | 'refused' | 'failed';

/**
 * A stored announcement (spec section 3). `(stockId, sourceKey)` is the natural key: however many pollers
 * see an announcement, it is stored once (INSERT ... ON CONFLICT DO NOTHING).
 */
@Entity({ name: 'announcements' })
export class AnnouncementEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ name: 'send_guid', type: 'uuid', generated: 'uuid' })
  sendGuid!: string;

  /** The source's document id, or `manual:<uuid>` for an announcement added by hand. */
  @Column({ name: 'source_key', type: 'text' })
  sourceKey!: string;

  @Column({ type: 'text' })
  headline!: string;

  @Column({ name: 'headline_original', type: 'text', nullable: true })
  headlineOriginal!: string | null;

  @Column({ name: 'released_at', type: 'timestamptz' })
  releasedAt!: Date;

  @Column({ name: 'price_sensitive', type: 'boolean', default: false })
  priceSensitive!: boolean;

  @Column({ name: 'remote_path', type: 'text', default: '' })
  remotePath!: string;

  /** Relative to DATA_DIR. */
  @Column({ name: 'local_path', type: 'text', nullable: true })
  localPath!: string | null;

  @Column({ name: 'file_status', type: 'text', default: 'none' })
  fileStatus!: FileStatus;

  @Column({ name: 'file_problem', type: 'text', nullable: true })
  fileProblem!: string | null;

  @Column({
    name: 'file_size',
    type: 'bigint',
    nullable: true,
    transformer: { to: (v) => v, from: (v) => (v === null ? null : Number(v)) },
  })
  fileSize!: number | null;

  @Column({ name: 'file_sha256', type: 'text', nullable: true })
  fileSha256!: string | null;

  @Column({ name: 'video_url', type: 'text', default: '' })
  videoUrl!: string;

  @Column({ name: 'video_description', type: 'text', default: '' })
  videoDescription!: string;

  @Column({ name: 'thumbnail_page_num', type: 'int', nullable: true })
  thumbnailPageNum!: number | null;

  @Column({ name: 'send_requested_at', type: 'timestamptz', nullable: true })
  sendRequestedAt!: Date | null;

  /** Every comment investors posted on it (the staff Announcements tab's Comments column). */
  @Column({ name: 'num_comments', type: 'int', default: 0 })
  numComments!: number;

  /** The comments moderators made public (what the widget counts). */
  @Column({ name: 'num_public_comments', type: 'int', default: 0 })
  numPublicComments!: number;

  @Column({ type: 'int', default: 0 })
  hits!: number;

  @Column({ name: 'deleted_on', type: 'timestamptz', nullable: true })
  deletedOn!: Date | null;

  @Column({ type: 'text' })
  origin!: AnnouncementOrigin;

  @Column({ name: 'auto_send', type: 'text', nullable: true })
  autoSend!: AutoSendState | null;

  /** When the automatic send was requested: what the hourly and daily limits count. */
  @Column({ name: 'auto_send_at', type: 'timestamptz', nullable: true })
  autoSendAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  // Who was mailed it (sent, send_history, alert_latency_ms) is the email-marketing service's alone, retired
  // here by docs/adr/0013. The columns stay this release because pods of the last one still read and write
  // them during a rolling update; this code never selects, inserts or updates them (typed `never`, so it
  // cannot), and they stay mapped only so the entities keep matching the migrated schema. The next release's
  // migration drops them with these properties.

  @Column({ type: 'boolean', default: false, select: false, insert: false, update: false })
  sent?: never;

  @Column({
    name: 'send_history',
    type: 'jsonb',
    default: () => "'[]'",
    select: false,
    insert: false,
    update: false,
  })
  sendHistory?: never;

  @Column({
    name: 'alert_latency_ms',
    type: 'int',
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  alertLatencyMs?: never;
}
