import { DataSource } from 'typeorm';
import { createLogger } from '../logging';
import { outboxPruned } from '../metrics';

const log = createLogger('outbox-pruner');

export interface OutboxPruneOptions {
  retentionDays: number;
  /** Rows per DELETE, so one run never holds a long transaction or a large lock. */
  batchSize?: number;
}

/**
 * Deletes published outbox rows whose publication is older than the retention, oldest first, in batches.
 * Unpublished rows are never touched, however old. Returns how many rows it deleted. Run it through a
 * SingletonJob, so one instance of the service prunes at a time.
 */
export async function pruneOutbox(
  dataSource: DataSource,
  schema: string,
  { retentionDays, batchSize = 1000 }: OutboxPruneOptions,
): Promise<number> {
  let total = 0;
  for (;;) {
    // Published rows are mostly the oldest ids, so walking the primary key from the start finds them fast.
    const deleted: unknown = await dataSource.query(
      `DELETE FROM "${schema}".outbox WHERE id IN (
         SELECT id FROM "${schema}".outbox
         WHERE published_at IS NOT NULL AND published_at < now() - make_interval(days => $1)
         ORDER BY id LIMIT $2)`,
      [retentionDays, batchSize],
    );
    // TypeORM answers a DELETE with [rows, affected count].
    const count = Array.isArray(deleted) && typeof deleted[1] === 'number' ? deleted[1] : 0;
    total += count;
    outboxPruned.inc(count);
    if (count < batchSize) break;
  }
  if (total) log.info({ schema, deleted: total, retentionDays }, 'pruned published outbox rows');
  return total;
}
