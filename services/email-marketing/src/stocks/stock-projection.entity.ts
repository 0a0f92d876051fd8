import { StockProjectionColumns } from '@irp/platform';
import { Column, Entity } from 'typeorm';

/**
 * What this service keeps of a stock (the platform's stock projection fills it; the service never reads the
 * stocks schema): id, ticker, exchange, combinedTicker and updatedAt come from StockProjectionColumns; each
 * column here is the proto Stock's field of the same name.
 */
@Entity({ name: 'stocks' })
export class StockProjectionEntity extends StockProjectionColumns {
  @Column({ name: 'company_name', type: 'text', default: '' })
  companyName!: string;

  @Column({ name: 'api_key', type: 'text', nullable: true })
  apiKey!: string | null;

  @Column({ name: 'company_logo_url', type: 'text', default: '' })
  companyLogoUrl!: string;

  @Column({ name: 'confirmation_email', type: 'text', default: '' })
  confirmationEmail!: string;

  @Column({ name: 'announcement_notification_emails', type: 'text', default: '' })
  announcementNotificationEmails!: string;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;
}

/** A stock as this service's features read it. */
export type ProjectedStock = StockProjectionEntity;
