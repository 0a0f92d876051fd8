import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * bigint (money in integer cents) is read by the driver as text; as a number here, since cents stay far
 * below 2^53. Raw SQL selects such a column `::float8`, which gives the same number.
 */
export const CENTS = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/**
 * An invoice of the accounting system as last read (money in integer cents). Only sales invoices are kept;
 * which stock it belongs to is decided at query time (InvoicesRepository's matching rule).
 */
@Entity({ name: 'invoices' })
export class InvoiceEntity {
  /** The accounting system's InvoiceID, lower-cased. */
  @PrimaryColumn({ name: 'invoice_id', type: 'text' })
  invoiceId!: string;

  @Column({ name: 'invoice_number', type: 'text' })
  invoiceNumber!: string;

  /** DRAFT, SUBMITTED, AUTHORISED, PAID, VOIDED or DELETED (upper-cased). */
  @Column({ type: 'text' })
  status!: string;

  /** What the invoice is matched to a stock's accounting reference by. */
  @Column({ type: 'text', default: '' })
  reference!: string;

  @Column({ name: 'contact_id', type: 'text', default: '' })
  contactId!: string;

  @Column({ name: 'contact_name', type: 'text', default: '' })
  contactName!: string;

  /** The schedule that made it, null for one made by hand. */
  @Column({ name: 'repeating_invoice_id', type: 'text', nullable: true })
  repeatingInvoiceId!: string | null;

  /** The invoice's day, YYYY-MM-DD: TypeORM reads a date as that text; raw SQL selects it with to_char. */
  @Column({ type: 'date' })
  date!: string;

  @Column({ name: 'due_date', type: 'date', nullable: true })
  dueDate!: string | null;

  @Column({ name: 'total_cents', type: 'bigint', transformer: CENTS })
  totalCents!: number;

  @Column({ name: 'amount_due_cents', type: 'bigint', transformer: CENTS })
  amountDueCents!: number;

  /** The accounting system's UpdatedDateUTC: a stored invoice is only replaced by one not older. */
  @Column({ name: 'updated_utc', type: 'timestamptz' })
  updatedUtc!: Date;

  @Column({ name: 'synced_at', type: 'timestamptz', default: () => 'now()' })
  syncedAt!: Date;
}
