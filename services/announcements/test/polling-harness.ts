import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { kafkaClientConfig, postgresJobLock } from '@irp/platform';
import { GlobalRole, type Stock } from '@irp/proto';
import { actor, stockFixture } from '@irp/proto/testing';
import { loadTestEnv, waitUntil } from '@irp/platform/testing';
import { Kafka } from 'kafkajs';
import type { AsxStandIn } from '@irp/standins/asx';

/** Shared pieces of the polling engine's integration tests (not a test file itself). */

export const ADMIN = actor({
  id: '11111111-1111-4111-8111-111111111111',
  username: 'alice',
  roles: [GlobalRole.Admin],
});
export const CLIENT = actor({ id: '33333333-3333-4333-8333-333333333333', username: 'carl' });

export const ERROR_EMAIL = 'ops@example.com';

/** The service's environment on the stand-in: asx source, fast ticks, its own data folder. */
export function pollingEnv(standIn: AsxStandIn, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dataDir = mkdtempSync(join(tmpdir(), 'irp-polling-test-'));
  return {
    ASX_BASE_URL: standIn.url,
    ASX2_BASE_URL: standIn.url,
    DEFAULT_ANNOUNCEMENT_SERVICE: 'asx',
    POLL_INTERVAL_MS: '1000',
    SOURCE_TIMEOUT_MS: '2000',
    DATA_DIR: dataDir,
    // Its own instance id: waitForGroups recognises this process's consumers by it.
    INSTANCE_ID: `test-${randomUUID().slice(0, 8)}`,
    ...extra,
  };
}

/**
 * SQL recording a completed initial poll (this service's own initial_polls row) for every projected stock
 * matching `where` (over `announcements.stocks s`) that has no run: what a polled stock that finished its
 * initial poll has, so the scheduler polls it.
 */
export const completedInitialPollsSql = (where = 'true'): string =>
  `INSERT INTO announcements.initial_polls
     (stock_id, run_id, status, from_year, to_year, current_year, found, started_at, completed_at)
   SELECT s.id, gen_random_uuid(), 'completed', s.announcement_start_year, s.announcement_start_year,
          s.announcement_start_year, 0, now(), now()
   FROM announcements.stocks s WHERE ${where}
   ON CONFLICT (stock_id) DO NOTHING`;

/** Removes the PDFs the test's service stored (pollingEnv's DATA_DIR). */
export function removeDataDir(env: NodeJS.ProcessEnv | undefined): void {
  if (env?.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
}

let updatedAtClock = Date.now();

/** A whole `stock.upserted` payload (the stocks service's Stock), newer than any made before it. */
export function stockEvent(fields: Partial<Stock> & { ticker: string }): Stock {
  updatedAtClock = Math.max(updatedAtClock + 1, Date.now());
  const now = new Date().toISOString();
  return stockFixture({
    id: randomUUID(),
    created: now,
    announcementStartYear: new Date().getUTCFullYear(),
    billingDate: now,
    ...fields,
    updatedAt: new Date(updatedAtClock).toISOString(),
  });
}

/** The same stock, changed, as the next `stock.upserted`. */
export function changed(stock: Stock, fields: Partial<Stock>): Stock {
  updatedAtClock = Math.max(updatedAtClock + 1, Date.now());
  return {
    ...stock,
    ...fields,
    version: stock.version + 1,
    updatedAt: new Date(updatedAtClock).toISOString(),
  };
}

const admin = () =>
  new Kafka(
    kafkaClientConfig({
      brokers: loadTestEnv().KAFKA_BROKERS.split(','),
      service: 'polling-test',
      instanceId: randomUUID().slice(0, 8),
    }),
  ).admin();

/**
 * Waits until `instanceId`'s consumer is a member of every group, which then is stable: a group joins at the
 * latest offset of a partition it never committed on, so what a test produces before its consumer joined
 * could be skipped; and a group still holding the previous test file's member is not ready either.
 */
export async function waitForGroups(groups: string[], instanceId: string, timeoutMs = 30_000): Promise<void> {
  const client = admin();
  await client.connect();
  try {
    await waitUntil(
      `consumer groups ${groups.join(', ')} joined by ${instanceId}`,
      async () => {
        const { groups: described } = await client.describeGroups(groups);
        return described.every(
          (g) => g.state === 'Stable' && g.members.some((m) => m.clientId.endsWith(`-${instanceId}`)),
        );
      },
      timeoutMs,
      200,
    );
  } finally {
    await client.disconnect();
  }
}

/** Moves a group that has no members to the end of a topic: work a test left behind is not done later. */
export async function skipBacklog(groupId: string, topic: string): Promise<void> {
  const client = admin();
  await client.connect();
  try {
    await client.resetOffsets({ groupId, topic, earliest: false });
  } finally {
    await client.disconnect();
  }
}

/**
 * Holds a singleton job's lock from the test, so the service under test never runs that job: the stock
 * projection's bootstrap asks the stocks service (not running here) and would hold up shutdown until its
 * request times out. Returns the release.
 */
export async function holdSingletonJob(job: string): Promise<() => Promise<void>> {
  const lock = await postgresJobLock(loadTestEnv().DATABASE_URL, job, 'test')();
  if (!(await lock.tryAcquire())) {
    await lock.close();
    throw new Error(`the lock of ${job} is held by someone else`);
  }
  return () => lock.close();
}

/** The stock projection's bootstrap job (src/stocks/projection-bootstrap.ts). */
export const PROJECTION_BOOTSTRAP_JOB = 'announcements:stock-projection';
