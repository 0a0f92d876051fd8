import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The latest initial poll (or resync) of a stock: one row per stock, replaced by the next run. */
@Entity({ name: 'initial_polls' })
export class InitialPollEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  /** A new run gets a new id; work of an older run (a redelivered request) is ignored. */
  @Column({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @Column({ type: 'text' })
  status!: 'running' | 'completed' | 'failed';

  @Column({ name: 'from_year', type: 'int' })
  fromYear!: number;

  @Column({ name: 'to_year', type: 'int' })
  toYear!: number;

  /** The year being read; the next run of this same runId resumes here. */
  @Column({ name: 'current_year', type: 'int', nullable: true })
  currentYear!: number | null;

  @Column({ type: 'int', default: 0 })
  found!: number;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
