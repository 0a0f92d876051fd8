import { StockProjectionColumns } from '@irp/platform';
import { Column, Entity } from 'typeorm';

/**
 * This service's own copy of what it needs of each stock (the platform's stock projection keeps it from
 * `stock.upserted` and `stocks.list`): id, ticker, exchange, combinedTicker and updatedAt come from
 * StockProjectionColumns; each column here is the proto Stock's field of the same name.
 */
@Entity({ name: 'stocks' })
export class StockProjectionEntity extends StockProjectionColumns {
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
}
