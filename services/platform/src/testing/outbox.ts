import { Client } from 'pg';
import { loadTestEnv, waitUntil } from './harness';

export interface OutboxEvent {
  key: string | null;
  payload: unknown;
  published: boolean;
}

/**
 * The events a service's outbox holds for `topic` (or any of several topics; and `key`), oldest first. The outbox is written in the
 * transaction of the change that implies the event and is what the relay publishes from: once the handler
 * that would write one is done (`untilHandled`), these rows are every event of it there will ever be, so
 * "none" proves nothing was sent and "one, published" proves exactly one, without waiting for the topic.
 */
export async function outboxEvents(
  schema: string,
  topic: string | readonly string[],
  key?: string,
): Promise<OutboxEvent[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  const pg = new Client({ connectionString: loadTestEnv().DATABASE_URL });
  await pg.connect();
  try {
    const { rows } = await pg.query<OutboxEvent>(
      `SELECT key, payload, published_at IS NOT NULL AS published FROM ${schema}.outbox
       WHERE topic = ANY($1::text[]) AND ($2::text IS NULL OR key = $2) ORDER BY id`,
      [typeof topic === 'string' ? [topic] : topic, key ?? null],
    );
    return rows;
  } finally {
    await pg.end();
  }
}

/** Waits until every outbox event of `topic` (or of several topics; and `key`) is published; returns them. */
export async function untilOutboxPublished(
  schema: string,
  topic: string | readonly string[],
  key?: string,
  timeoutMs = 15_000,
): Promise<OutboxEvent[]> {
  let events: OutboxEvent[] = [];
  await waitUntil(
    `${schema}'s ${String(topic)} events published`,
    async () => (events = await outboxEvents(schema, topic, key)).every((e) => e.published),
    timeoutMs,
    100,
  );
  return events;
}
