import type { Producer } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { metricsRegistry } from '../metrics';
import { OutboxRelay } from './outbox';

/**
 * irp_outbox_oldest_unpublished_seconds (the OutboxBacklog alert, deploy/k8s-monitoring.mjs): set by the relay
 * from the batch it reads. A database stand-in answers the relay's two queries (the lock, the batch).
 */
function relayOver(answer: { locked: boolean; rows: Array<Record<string, unknown>> }, send = jest.fn()) {
  const manager = {
    query: jest.fn(async (sql: string) => {
      if (sql.includes('pg_try_advisory_xact_lock')) return [{ locked: answer.locked }];
      if (sql.startsWith('SELECT id')) return answer.rows;
      return [];
    }),
  } as unknown as EntityManager;
  const dataSource = {
    transaction: (work: (m: EntityManager) => Promise<number>) => work(manager),
  } as unknown as DataSource;
  return new OutboxRelay(dataSource, { sendBatch: send } as unknown as Producer, 'orders');
}

const row = (id: string, ageSeconds: number) => ({
  id,
  topic: 'order.placed',
  key: id,
  payload: {},
  headers: {},
  age_seconds: ageSeconds,
});

async function backlog(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('irp_outbox_oldest_unpublished_seconds')!.get();
  return metric.values[0].value;
}

describe('the outbox backlog gauge', () => {
  it('is the age of the oldest row the relay reads, and stays so while publishing fails', async () => {
    const failing = jest.fn().mockRejectedValue(new Error('broker away'));
    await expect(
      relayOver({ locked: true, rows: [row('7', 42.5), row('8', 3)] }, failing).publishBatch(),
    ).rejects.toThrow('broker away');
    expect(await backlog()).toBe(42.5);
  });

  it('is 0 once the outbox is empty', async () => {
    await relayOver({ locked: true, rows: [row('7', 42.5)] }).publishBatch();
    expect(await backlog()).toBe(42.5);
    expect(await relayOver({ locked: true, rows: [] }).publishBatch()).toBe(0);
    expect(await backlog()).toBe(0);
  });

  it("is 0 in a process whose relay does not hold the lock (the holder's reports the backlog)", async () => {
    await relayOver({ locked: true, rows: [row('9', 120)] }).publishBatch();
    expect(await relayOver({ locked: false, rows: [row('9', 120)] }).publishBatch()).toBe(0);
    expect(await backlog()).toBe(0);
  });
});
