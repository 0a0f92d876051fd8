import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AnnouncementOrigin, AutoSendState, SendHistoryEntry } from '@irp/proto';

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

  @Column({ type: 'boolean', default: false })
  sent!: boolean;

  @Column({ name: 'send_history', type: 'jsonb', default: () => "'[]'" })
  sendHistory!: SendHistoryEntry[];

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

  /** Release at the source -> first subscriber mail accepted by SMTP (from the email service); null until then. */
  @Column({ name: 'alert_latency_ms', type: 'int', nullable: true })
  alertLatencyMs!: number | null;

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
}
