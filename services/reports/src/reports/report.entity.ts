import type { ReportView } from '@irp/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A generated report: what was asked, and its view as computed then, named by an unguessable guid. */
@Entity({ name: 'reports' })
export class ReportEntity {
  /** 128 random bits as 32 hex digits. */
  @PrimaryColumn({ type: 'text' })
  guid!: string;

  @Column({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'text' })
  ticker!: string;

  /** The peers' combinedTickers. */
  @Column({ type: 'text', array: true })
  peers!: string[];

  @Column({ name: 'start_date', type: 'date' })
  startDate!: string;

  @Column({ name: 'end_date', type: 'date' })
  endDate!: string;

  /** Whether the comparative trading activity was asked for. */
  @Column({ type: 'boolean' })
  comparative!: boolean;

  @Column({ name: 'price_overlay', type: 'boolean' })
  priceOverlay!: boolean;

  /** The public page's date-range search: only when the staff member ticked 'Allow search'. */
  @Column({ name: 'allow_search', type: 'boolean', default: false })
  allowSearch!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  /** The staff user's username; null for a regenerated report (the public page's date form). */
  @Column({ name: 'created_by', type: 'text', nullable: true })
  createdBy!: string | null;

  @Column({ type: 'jsonb' })
  view!: ReportView;

  /** A public regeneration's staff report (the root of its searches); null for a staff report. */
  @Column({ name: 'parent_guid', type: 'text', nullable: true })
  parentGuid!: string | null;

  /** When a public regeneration is pruned (REPORT_REGENERATION_TTL_MS after it was made); null: kept. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;
}
