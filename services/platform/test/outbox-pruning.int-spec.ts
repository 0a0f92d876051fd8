import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxRelay, pruneOutbox } from '@irp/platform';
import { dropSchema, serviceTestEnv, waitUntil } from '@irp/platform/testing';
import { FIXTURE_SCHEMA, fixtureService } from './fixtures/fixture-service';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

describe('outbox pruning', () => {
  let app: INestApplication;
  let db: DataSource;

  /** Outbox rows of each kind, `days` old (by publication, or by creation when unpublished). */
  const insert = async (kind: string, days: number, published: boolean, count = 1) => {
    await db.query(
      `INSERT INTO ${FIXTURE_SCHEMA}.outbox (topic, key, payload, created_at, published_at)
       SELECT 'fixture.event', $1, '{}'::jsonb, now() - make_interval(days => $2 + 1),
              CASE WHEN $3 THEN now() - make_interval(days => $2) END
       FROM generate_series(1, $4)`,
      [kind, days, published, count],
    );
  };
  const remaining = async () => {
    const rows: Array<{ key: string; n: number }> = await db.query(
      `SELECT key, count(*)::int AS n FROM ${FIXTURE_SCHEMA}.outbox GROUP BY key ORDER BY key`,
    );
    return Object.fromEntries(rows.map((r) => [r.key, r.n]));
  };

  beforeAll(async () => {
    await dropSchema(FIXTURE_SCHEMA);
    // The fixture's idle role has no handlers: a process with its database, outbox and jobs, no consumer.
    app = await fixtureService.start({
      ...serviceTestEnv(),
      ROLES: 'idle',
      OUTBOX_RETENTION_DAYS: '7',
      OUTBOX_PRUNE_INTERVAL_MS: '1000',
    });
    db = app.get(DataSource);
    // The rows below are written by hand with a made-up topic: the relay must leave them as they are.
    await app.get(OutboxRelay).stop();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('deletes published rows older than OUTBOX_RETENTION_DAYS, and keeps unpublished and recent ones', async () => {
    await insert('old-published', 10, true, 5);
    await insert('recent-published', 6, true, 3);
    await insert('old-unpublished', 30, false, 2);
    // The platform's job (one holder at a time, every OUTBOX_PRUNE_INTERVAL_MS) removes the old ones.
    await waitUntil(
      'old published rows pruned',
      async () => (await remaining())['old-published'] === undefined,
    );
    expect(await remaining()).toEqual({ 'old-unpublished': 2, 'recent-published': 3 });
    const metrics = await (
      await fetch(`http://127.0.0.1:${app.getHttpServer().address().port}/metrics`)
    ).text();
    expect(metrics).toMatch(/irp_outbox_pruned_total\{[^}]*\} [1-9]/);
    expect(metrics).toMatch(/irp_singleton_job_holder\{[^}]*job="outbox-prune:platform_fixture"[^}]*\} 1/);
  });

  it('deletes in batches until none is left', async () => {
    // Younger than the job's 7 days, so only this call deletes them (with the 6-day-old ones).
    await insert('batch', 4, true, 7);
    expect(await pruneOutbox(db, FIXTURE_SCHEMA, { retentionDays: 3, batchSize: 2 })).toBe(10);
    expect(await remaining()).toEqual({ 'old-unpublished': 2 });
    expect(await pruneOutbox(db, FIXTURE_SCHEMA, { retentionDays: 3, batchSize: 2 })).toBe(0);
  });
});
