import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { SourceAnnouncement } from '../sources/source';

/** Per ticker, what the source had that was not stored: kept whole so `apply` stores exactly what was shown. */
export interface ReconcileFinding {
  stockId: string;
  ticker: string;
  items: SourceAnnouncement[];
}

/** A reconcile run (spec section 5, system settings' tool): progress, findings, and whether it was applied. */
@Entity({ name: 'reconciles' })
export class ReconcileEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'num_days', type: 'int' })
  numDays!: number;

  @Column({ type: 'text' })
  status!: 'running' | 'completed' | 'failed' | 'applied';

  @Column({ type: 'int', default: 0 })
  checked!: number;

  @Column({ type: 'int', default: 0 })
  total!: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  findings!: ReconcileFinding[];

  @Column({ type: 'int', nullable: true })
  applied!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'started_by', type: 'text', default: '' })
  startedBy!: string;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
