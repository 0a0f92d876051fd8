import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Staff's choice for an invoice its reference does not match to a stock: the stock it belongs to, or set
 * aside (ignored); exactly one of the two (the migration's check). No row: no choice.
 */
@Entity({ name: 'assignments' })
export class AssignmentEntity {
  @PrimaryColumn({ name: 'invoice_id', type: 'text' })
  invoiceId!: string;

  @Column({ name: 'stock_id', type: 'uuid', nullable: true })
  stockId!: string | null;

  @Column({ type: 'boolean', default: false })
  ignored!: boolean;

  /** The username of who chose. */
  @Column({ name: 'assigned_by', type: 'text' })
  assignedBy!: string;

  @Column({ name: 'assigned_at', type: 'timestamptz', default: () => 'now()' })
  assignedAt!: Date;
}
