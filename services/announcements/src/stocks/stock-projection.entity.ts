import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * This service's own copy of what it needs of each stock, kept from `stock.upserted` events
 * (event-carried state transfer): the service never reads the stocks schema. `updatedAt` orders events.
 */
@Entity({ name: 'stocks' })
export class StockProjectionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  ticker!: string;

  @Column({ type: 'text' })
  exchange!: string;

  @Column({ name: 'combined_ticker', type: 'text' })
  combinedTicker!: string;

  @Column({ name: 'company_name', type: 'text', default: '' })
  companyName!: string;

  @Column({ name: 'website_url', type: 'text', default: '' })
  websiteUrl!: string;

  @Column({ name: 'api_key', type: 'text', nullable: true })
  apiKey!: string | null;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;

  @Column({ name: 'poll_asx', type: 'boolean', default: false })
  pollAsx!: boolean;

  @Column({ name: 'subscription_expired', type: 'boolean', default: false })
  subscriptionExpired!: boolean;

  @Column({ name: 'announcement_start_year', type: 'int' })
  announcementStartYear!: number;

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

  @Column({ name: 'confirmation_email', type: 'text', default: '' })
  confirmationEmail!: string;

  @Column({ name: 'announcement_notification_emails', type: 'text', default: '' })
  announcementNotificationEmails!: string;

  /** Who hears of each new announcement comment (comma or semicolon separated). */
  @Column({ name: 'moderator_email', type: 'text', default: '' })
  moderatorEmail!: string;

  /** Fills the mail a commenter receives when a response is posted publicly. */
  @Column({ name: 'announcement_comment_template', type: 'text', default: '' })
  announcementCommentTemplate!: string;

  /** The stock's `updatedAt` of the last event applied; older events are ignored. */
  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
