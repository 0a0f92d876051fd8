import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { SendChannel } from './delivery-rules';
import type { SendMessage } from './send-message';

/**
 * A send: one per request and channel (its request key makes a redelivered request a no-op), an announcement
 * to subscribers or a fixed mail, with what its deliveries render (`message`) and, for a campaign, what the
 * provider answered.
 */
@Entity({ name: 'sends' })
export class SendEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Unique (the migrations' constraint): sendRequestKey for an announcement, else the mail's own key. */
  @Column({ name: 'request_key', type: 'text' })
  requestKey!: string;

  /** announcement, confirmation, notification, error … (metrics and reports read it). */
  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'text' })
  channel!: SendChannel;

  @Column({ name: 'stock_id', type: 'uuid', nullable: true })
  stockId!: string | null;

  @Column({ name: 'send_guid', type: 'uuid', nullable: true })
  sendGuid!: string | null;

  @Column({ type: 'boolean', default: false })
  auto!: boolean;

  /** A price-sensitive announcement's send: its deliveries go in the priority lane (docs/adr/0016). */
  @Column({ name: 'price_sensitive', type: 'boolean', default: false })
  priceSensitive!: boolean;

  /**
   * Every delivery written: an announcement send by email is written in two steps, its first batch with the
   * send and the rest in its own message (docs/adr/0019); until then it is never closed as finished.
   */
  @Column({ type: 'boolean', default: true })
  expanded!: boolean;

  /** sending, done or failed (a campaign the provider refused). */
  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'jsonb' })
  message!: SendMessage;

  /** The announcement's release, from which the alert latency counts. */
  @Column({ name: 'released_at', type: 'timestamptz', nullable: true })
  releasedAt!: Date | null;

  @Column({ name: 'requested_at', type: 'timestamptz', default: () => 'now()' })
  requestedAt!: Date;

  @Column({ name: 'first_accepted_at', type: 'timestamptz', nullable: true })
  firstAcceptedAt!: Date | null;

  @Column({ name: 'alert_latency_ms', type: 'integer', nullable: true })
  alertLatencyMs!: number | null;

  @Column({ name: 'campaign_id', type: 'text', nullable: true })
  campaignId!: string | null;

  @Column({ name: 'preview_url', type: 'text', nullable: true })
  previewUrl!: string | null;

  /**
   * Who a campaign that went out reached, as its announcement's send history names it (campaignAudience: the
   * provider's list); null for every other send.
   */
  @Column({ type: 'text', nullable: true })
  audience!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
