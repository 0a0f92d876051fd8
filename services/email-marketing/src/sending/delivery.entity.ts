import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Where a delivery stands (the migrations' check lists the same). */
export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

/**
 * A delivery: one per send and address (unique in the migrations), queued, claimed under a sender's owner
 * number before SMTP (ADR 0008, 0010), marked after the server's answer, and reported once (from then in its
 * announcement's send history).
 */
@Entity({ name: 'deliveries' })
export class DeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The send it belongs to (a foreign key, deleted with it). */
  @Column({ name: 'send_id', type: 'uuid' })
  sendId!: string;

  /** The subscriber of an announcement delivery; null for a fixed mail's recipient. */
  @Column({ name: 'subscriber_id', type: 'uuid', nullable: true })
  subscriberId!: string | null;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text', default: 'queued' })
  status!: DeliveryStatus;

  /** Claims so far (each claim counts one). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'not_before', type: 'timestamptz', default: () => 'now()' })
  notBefore!: Date;

  /** When its latest batch message was written (the sweeper tells a lost one by its age). */
  @Column({ name: 'queued_at', type: 'timestamptz', default: () => 'now()' })
  queuedAt!: Date;

  /** Only for claims without an owner (an earlier version's), and written for a rollback to leases alone. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  /** The INSTANCE_ID of the sender that claimed it last. */
  @Column({ name: 'claimed_by', type: 'text', nullable: true })
  claimedBy!: string | null;

  /** The owner number (ClaimOwner) whose advisory lock proves the claiming process alive. */
  @Column({ name: 'claimed_owner', type: 'integer', nullable: true })
  claimedOwner!: number | null;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'message_id', type: 'text', nullable: true })
  messageId!: string | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /**
   * Accepted and reported (`announcement.delivered`, in the transaction that records the send's alert
   * latency): from then in the announcement's send history, so the history, `sent` and the latency change
   * together.
   */
  @Column({ type: 'boolean', default: false })
  reported!: boolean;
}
