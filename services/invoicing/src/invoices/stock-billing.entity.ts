import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A stock's billing choices: the repeating invoice chosen on its Invoices tab and its accounting contact. */
@Entity({ name: 'stock_billing' })
export class StockBillingEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  /** Null: the running one its reference matches. */
  @Column({ name: 'repeating_invoice_id', type: 'text', nullable: true })
  repeatingInvoiceId!: string | null;

  /** Null: no contact created yet (a repeating invoice needs one). */
  @Column({ name: 'contact_id', type: 'text', nullable: true })
  contactId!: string | null;

  /** The username of who changed it last. */
  @Column({ name: 'updated_by', type: 'text' })
  updatedBy!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
