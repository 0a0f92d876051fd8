import type { SubscriberStatus, SubscriptionPreference } from '@irp/proto';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An investor's subscription to a stock's announcements: double opt-in with consent evidence. Unique per
 * stock and address in any case (the migrations' index); only token hashes are stored.
 */
@Entity({ name: 'subscribers' })
export class SubscriberEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  status!: SubscriberStatus;

  @Column({ name: 'subscribed_at', type: 'timestamptz', default: () => 'now()' })
  subscribedAt!: Date;

  @Column({ name: 'consent_ip', type: 'text', default: '' })
  consentIp!: string;

  @Column({ name: 'consent_user_agent', type: 'text', default: '' })
  consentUserAgent!: string;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt!: Date | null;

  @Column({ name: 'unsubscribed_at', type: 'timestamptz', nullable: true })
  unsubscribedAt!: Date | null;

  /** The sha256 of the pending confirmation link's token; spent (null) once used. */
  @Column({ name: 'confirm_token_hash', type: 'text', nullable: true })
  confirmTokenHash!: string | null;

  @Column({ name: 'confirm_token_expires_at', type: 'timestamptz', nullable: true })
  confirmTokenExpiresAt!: Date | null;

  /** What the subscriber chose to be mailed (the preference page). */
  @Column({ type: 'text', default: 'all' })
  preference!: SubscriptionPreference;

  /** Mailed nothing until then (a pause chosen on the preference page). */
  @Column({ name: 'paused_until', type: 'timestamptz', nullable: true })
  pausedUntil!: Date | null;

  /** The sha256 of a token of the earlier unsubscribe scheme (unsubscribe-tokens.ts); null for newer ones. */
  @Column({ name: 'legacy_unsubscribe_token_hash', type: 'text', nullable: true })
  legacyUnsubscribeTokenHash!: string | null;
}
