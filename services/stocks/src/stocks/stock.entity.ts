import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A stock and its settings (spec section 3). Text fields are '' when unset; `apiKey` is null until one is
 * saved. Not `completedInitialPoll`: the announcements service keeps the initial poll, and the gateway
 * composes that field where a response carries it.
 */
@Entity({ name: 'stocks' })
export class StockEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Upper-cased; unique together with the exchange. */
  @Column({ type: 'text' })
  ticker!: string;

  @Column({ type: 'text' })
  exchange!: string;

  @Column({ type: 'text', default: '' })
  isin!: string;

  @Column({ name: 'company_name', type: 'text', default: '' })
  companyName!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;

  @Column({ name: 'poll_asx', type: 'boolean', default: false })
  pollAsx!: boolean;

  @Column({ name: 'send_price_sensitive_announcements', type: 'boolean', default: false })
  sendPriceSensitiveAnnouncements!: boolean;

  @Column({ name: 'send_non_price_sensitive_announcements', type: 'boolean', default: false })
  sendNonPriceSensitiveAnnouncements!: boolean;

  @Column({ name: 'auto_send_announcement_email', type: 'boolean', default: false })
  autoSendAnnouncementEmail!: boolean;

  @Column({ name: 'auto_send_non_price_sensitive_announcements', type: 'boolean', default: false })
  autoSendNonPriceSensitiveAnnouncements!: boolean;

  @Column({ name: 'auto_send_filter', type: 'text', default: '' })
  autoSendFilter!: string;

  @Column({ name: 'announcement_start_year', type: 'int' })
  announcementStartYear!: number;

  @Column({ name: 'confirmation_email', type: 'text', default: '' })
  confirmationEmail!: string;

  @Column({ name: 'moderator_email', type: 'text', default: '' })
  moderatorEmail!: string;

  @Column({ name: 'contact_email', type: 'text', default: '' })
  contactEmail!: string;

  @Column({ name: 'billing_date', type: 'timestamptz' })
  billingDate!: Date;

  @Column({ name: 'website_url', type: 'text', default: '' })
  websiteUrl!: string;

  /** Unique where set (partial unique index). */
  @Column({ name: 'api_key', type: 'text', nullable: true })
  apiKey!: string | null;

  @Column({ name: 'announcement_notification_emails', type: 'text', default: '' })
  announcementNotificationEmails!: string;

  @Column({ name: 'accounting_reference', type: 'text', default: '' })
  accountingReference!: string;

  @Column({ name: 'subscription_expired', type: 'boolean', default: false })
  subscriptionExpired!: boolean;

  @Column({ name: 'company_logo_url', type: 'text', default: '' })
  companyLogoUrl!: string;

  @Column({ name: 'announcement_comment_template', type: 'text', default: '' })
  announcementCommentTemplate!: string;

  @Column({ name: 'disable_market_data', type: 'boolean', default: false })
  disableMarketData!: boolean;

  /** Increments with every recorded change; equals the newest version history entry's versionId. */
  @Column({ type: 'int', default: 1 })
  version!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
