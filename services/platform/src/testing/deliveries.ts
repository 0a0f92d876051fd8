import { waitUntil } from './harness';

/** A pg Client or Pool (rows in `.rows`) or a TypeORM DataSource (rows returned). */
export interface SqlQueryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

async function rowsOf<T>(db: SqlQueryable, sql: string, params: unknown[]): Promise<T[]> {
  const result = await db.query(sql, params);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export interface SettledDelivery {
  email: string;
  status: string;
}

/**
 * Waits until the email-marketing send(s) of one announcement (`sendGuid`) or one request (`requestKey`)
 * exist, have every delivery written (`expanded`: a large send's rest comes after its first batch) and have
 * no delivery left open (`queued`/`sending`), and returns their deliveries sorted by address.
 * A sender marks a delivery only after the SMTP server accepted it, and no sender holds a claim on any of
 * them, so no further mail of these sends can arrive: the positive signal that a send is over, before a
 * test checks what it did not do (who was left out, that nothing came twice).
 */
export async function settledDeliveries(
  db: SqlQueryable,
  by: { sendGuid: string } | { requestKey: string },
  timeoutMs = 20_000,
): Promise<SettledDelivery[]> {
  const [column, value] = 'sendGuid' in by ? ['send_guid', by.sendGuid] : ['request_key', by.requestKey];
  let rows: Array<{ email: string | null; status: string | null; expanded: boolean }> = [];
  await waitUntil(
    `the email send of ${column} ${value} settled`,
    async () => {
      rows = await rowsOf(
        db,
        `SELECT d.email, d.status, s.expanded FROM email_marketing.sends s
         LEFT JOIN email_marketing.deliveries d ON d.send_id = s.id WHERE s.${column} = $1 ORDER BY d.email`,
        [value],
      );
      return (
        rows.length > 0 && rows.every((r) => r.expanded && r.status !== 'queued' && r.status !== 'sending')
      );
    },
    timeoutMs,
    100,
  );
  return rows.flatMap((r) => (r.email !== null ? [{ email: r.email, status: r.status as string }] : []));
}
