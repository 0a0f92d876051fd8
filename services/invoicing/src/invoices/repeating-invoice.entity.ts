import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CENTS } from './invoice.entity';

/**
 * A repeating invoice (a schedule) of the accounting system as last read. It has no change date, so the
 * sync reads them all and removes those the system no longer lists.
 */
@Entity({ name: 'repeating_invoices' })
export class RepeatingInvoiceEntity {
  /** The accounting system's RepeatingInvoiceID, lower-cased. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', default: '' })
  reference!: string;

  @Column({ name: 'contact_id', type: 'text', default: '' })
  contactId!: string;

  @Column({ name: 'contact_name', type: 'text', default: '' })
  contactName!: string;

  /** DRAFT, AUTHORISED or DELETED (upper-cased). */
  @Column({ type: 'text' })
  status!: string;

  /** Excluding GST: what the dashboards show ("+ GST"). */
  @Column({ name: 'subtotal_cents', type: 'bigint', transformer: CENTS })
  subtotalCents!: number;

  @Column({ name: 'total_cents', type: 'bigint', transformer: CENTS })
  totalCents!: number;

  /** Every `period` `unit`s (12 MONTHLY: yearly). */
  @Column({ type: 'integer' })
  period!: number;

  /** WEEKLY or MONTHLY. */
  @Column({ type: 'text' })
  unit!: string;

  /** YYYY-MM-DD, as the invoice's date (InvoiceEntity). */
  @Column({ name: 'next_scheduled_date', type: 'date', nullable: true })
  nextScheduledDate!: string | null;

  /** Its lines' descriptions, joined. */
  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ name: 'synced_at', type: 'timestamptz', default: () => 'now()' })
  syncedAt!: Date;
}
