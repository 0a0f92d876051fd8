import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Where the accounting sync stands: one row, id 'accounting'. */
@Entity({ name: 'sync_state' })
export class SyncStateEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** The newest change seen (If-Modified-Since of the next incremental read); only moves forward. */
  @Column({ name: 'invoices_modified_since', type: 'timestamptz', nullable: true })
  invoicesModifiedSince!: Date | null;

  /** The last sync that succeeded. */
  @Column({ name: 'synced_at', type: 'timestamptz', nullable: true })
  syncedAt!: Date | null;

  /** The last time the repeating invoices were read. */
  @Column({ name: 'repeating_synced_at', type: 'timestamptz', nullable: true })
  repeatingSyncedAt!: Date | null;

  /** The last sync's failure, null after one that succeeded. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
