import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SyncStateEntity } from './sync-state.entity';

/** Where the sync stands; every field null before the first sync. */
export type SyncState = Pick<
  SyncStateEntity,
  'invoicesModifiedSince' | 'syncedAt' | 'repeatingSyncedAt' | 'lastError'
>;

/** The accounting sync's one row of state ('accounting'). */
@Injectable()
export class SyncStateRepository {
  constructor(private readonly dataSource: DataSource) {}

  async syncState(): Promise<SyncState> {
    const rows: SyncState[] = await this.dataSource.query(
      `SELECT invoices_modified_since AS "invoicesModifiedSince", synced_at AS "syncedAt",
              repeating_synced_at AS "repeatingSyncedAt", last_error AS "lastError"
         FROM invoicing.sync_state WHERE id = 'accounting'`,
    );
    const r = rows[0];
    return {
      invoicesModifiedSince: r?.invoicesModifiedSince ?? null,
      syncedAt: r?.syncedAt ?? null,
      repeatingSyncedAt: r?.repeatingSyncedAt ?? null,
      lastError: r?.lastError ?? null,
    };
  }

  /** After a sync: the newest change seen only moves forward (two syncs at once cannot set it back). */
  async recordSync(result: { modifiedSince: Date | null; repeatingRead: boolean; error: string | null }) {
    await this.dataSource.query(
      `INSERT INTO invoicing.sync_state (id, invoices_modified_since, synced_at, repeating_synced_at, last_error)
       VALUES ('accounting', $1, CASE WHEN $3::text IS NULL THEN now() END, CASE WHEN $2 THEN now() END, $3)
       ON CONFLICT (id) DO UPDATE SET
         invoices_modified_since = GREATEST(invoicing.sync_state.invoices_modified_since, EXCLUDED.invoices_modified_since),
         synced_at = COALESCE(EXCLUDED.synced_at, invoicing.sync_state.synced_at),
         repeating_synced_at = COALESCE(EXCLUDED.repeating_synced_at, invoicing.sync_state.repeating_synced_at),
         last_error = EXCLUDED.last_error`,
      [result.modifiedSince, result.repeatingRead, result.error],
    );
  }
}
