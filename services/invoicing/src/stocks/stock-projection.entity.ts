import { StockProjectionColumns } from '@irp/platform';
import { Column, Entity } from 'typeorm';

/**
 * What this service keeps of a stock (the platform's stock projection fills it): the accounting reference
 * invoices are matched by, and what the accounting page's select, contacts and reminders show. Each column
 * is the proto Stock's field of the same name.
 */
@Entity({ name: 'stocks' })
export class StockProjectionEntity extends StockProjectionColumns {
  @Column({ name: 'company_name', type: 'text', default: '' })
  companyName!: string;

  @Column({ name: 'website_url', type: 'text', default: '' })
  websiteUrl!: string;

  @Column({ name: 'api_key', type: 'text', nullable: true })
  apiKey!: string | null;

  @Column({ name: 'accounting_reference', type: 'text', default: '' })
  accountingReference!: string;

  @Column({ name: 'contact_email', type: 'text', default: '' })
  contactEmail!: string;

  @Column({ name: 'billing_date', type: 'text', default: '' })
  billingDate!: string;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;
}

export type ProjectedStock = StockProjectionEntity;
