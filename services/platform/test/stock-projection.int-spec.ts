import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { AppError, kafkaClientConfig } from '@irp/platform';
import { dropSchema, loadTestEnv, rawProducer, serviceTestEnv, waitUntil } from '@irp/platform/testing';
import { Stock, Topics } from '@irp/proto';
import { stockFixture } from '@irp/proto/testing';
import { Kafka, Producer } from 'kafkajs';
import { Client } from 'pg';
import {
  changes,
  FixtureStockProjection,
  listedStocks,
  PROJECTION_FIXTURE_SCHEMA,
  PROJECTION_FIXTURE_SERVICE,
  projectionFixtureService,
} from './fixtures/projection-fixture-service';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/** A stock of this run (other suites' `stock.upserted` events may reach the fixture too). */
const stock = (ticker: string, companyName: string, updatedAt: string): Stock =>
  stockFixture({ id: randomUUID(), ticker: `${ticker}${Date.now() % 1000}`, companyName, updatedAt });

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

/**
 * The platform's stock projection on the real broker and database, through a fixture service that keeps
 * one (test/fixtures/projection-fixture-service.ts): bootstrap from `stocks.list`, `stock.upserted` ordered
 * by `updatedAt`, drift repair every second here, onChanged only on a change, and the lookups.
 */
describe('the stock projection', () => {
  let app: INestApplication;
  let pg: Client;
  let producer: Producer;
  const before = [stock('PRE', 'Before Ltd', at(1)), stock('PRF', 'Also Before Ltd', at(1))];

  const rowOf = async (id: string) =>
    (
      await pg.query<{ company_name: string; updated_at: Date }>(
        `SELECT company_name, updated_at FROM ${PROJECTION_FIXTURE_SCHEMA}.stocks WHERE id = $1`,
        [id],
      )
    ).rows[0];
  const changesOf = (id: string) => changes.filter((c) => c.id === id).map((c) => c.companyName);
  const publish = (s: Stock) =>
    producer.send({ topic: Topics.StockUpserted, messages: [{ key: s.id, value: JSON.stringify(s) }] });

  beforeAll(async () => {
    const env = loadTestEnv();
    await dropSchema(PROJECTION_FIXTURE_SCHEMA);
    // The fixture's group starts at the end of `stock.upserted`: no other suite's backlog, and nothing
    // produced while it joins is skipped (a group without committed offsets would start at the latest).
    const admin = new Kafka(
      kafkaClientConfig({
        brokers: env.KAFKA_BROKERS.split(','),
        service: 'projection-test',
        instanceId: '1',
      }),
    ).admin();
    await admin.connect();
    await admin.resetOffsets({
      groupId: PROJECTION_FIXTURE_SERVICE,
      topic: Topics.StockUpserted,
      earliest: false,
    });
    await admin.disconnect();
    pg = new Client({ connectionString: env.DATABASE_URL });
    await pg.connect();
    producer = await rawProducer();
    // Stocks that existed before the service first ran: no event will ever tell it of them.
    listedStocks.push(...before);
    app = await projectionFixtureService.start(serviceTestEnv());
  });

  afterAll(async () => {
    await app?.close();
    await producer?.disconnect();
    await pg?.end();
  });

  it('is filled from stocks.list at start, each stock reported changed once', async () => {
    await waitUntil('the listed stocks in the projection', async () => !!(await rowOf(before[1].id)), 30_000);
    expect((await rowOf(before[0].id))?.company_name).toBe('Before Ltd');
    // Re-listed every second since: an unchanged stock is not reported again.
    await new Promise((r) => setTimeout(r, 2500));
    expect(changesOf(before[0].id)).toEqual(['Before Ltd']);
    expect(changesOf(before[1].id)).toEqual(['Also Before Ltd']);
  });

  it('applies stock.upserted in updatedAt order: an older or repeated event changes nothing', async () => {
    const v2 = stock('EVT', 'Version 2', at(2));
    const v1 = { ...v2, companyName: 'Version 1', updatedAt: at(1) };
    const v3 = { ...v2, companyName: 'Version 3', updatedAt: at(3) };
    for (const s of [v2, v1, v2, v3]) await publish(s);
    // Its onChanged runs after the row is written: both are waited for, not the row alone.
    await waitUntil(
      'version 3 applied and reported',
      async () =>
        (await rowOf(v2.id))?.company_name === 'Version 3' && changesOf(v2.id).includes('Version 3'),
    );
    expect(changesOf(v2.id)).toEqual(['Version 2', 'Version 3']);
    // An older event after the newest: ignored, and not reported.
    const v4 = { ...v2, companyName: 'Version 4', updatedAt: at(4) };
    for (const s of [v1, v4]) await publish(s);
    await waitUntil(
      'version 4 applied and reported',
      async () =>
        (await rowOf(v2.id))?.company_name === 'Version 4' && changesOf(v2.id).includes('Version 4'),
    );
    expect(changesOf(v2.id)).toEqual(['Version 2', 'Version 3', 'Version 4']);
    expect((await rowOf(v2.id))?.updated_at.toISOString()).toBe(at(4));
  });

  it('repairs drift from stocks.list: a row changed by hand, a missed event; a lagging list never wins', async () => {
    const [pre] = before;
    const missed = { ...before[1], companyName: 'Renamed while away', updatedAt: at(5) };
    const ahead = stock('AHD', 'From an event', at(9));
    await publish(ahead);
    await waitUntil('the event applied', async () => !!(await rowOf(ahead.id)));
    // The list lags behind the event for `ahead`, and holds a version of the other stock never published.
    listedStocks.splice(
      0,
      listedStocks.length,
      { ...ahead, companyName: 'Stale list', updatedAt: at(8) },
      missed,
      pre,
    );
    await pg.query(`UPDATE ${PROJECTION_FIXTURE_SCHEMA}.stocks SET company_name = 'Tampered' WHERE id = $1`, [
      pre.id,
    ]);
    // Both drifts are repaired by a repair that read the new list: one that read the list before it changed
    // may already have put the tampered row back, without the missed version it never saw.
    await waitUntil(
      'the tampered row repaired and the missed version applied',
      async () =>
        (await rowOf(pre.id))?.company_name === 'Before Ltd' &&
        (await rowOf(missed.id))?.company_name === 'Renamed while away' &&
        changesOf(pre.id).length === 2 &&
        changesOf(missed.id).includes('Renamed while away'),
    );
    expect((await rowOf(ahead.id))?.company_name).toBe('From an event');
    expect(changesOf(pre.id)).toEqual(['Before Ltd', 'Before Ltd']);
    expect(changesOf(missed.id)).toEqual(['Also Before Ltd', 'Renamed while away']);
    expect(changesOf(ahead.id)).toEqual(['From an event']);
  });

  it('finds a stock by id and by combinedTicker (normalised), NOT_FOUND otherwise', async () => {
    const projection = app.get(FixtureStockProjection);
    const [pre] = before;
    expect((await projection.get(pre.id)).companyName).toBe('Before Ltd');
    expect(await projection.byId(randomUUID())).toBeNull();
    await expect(projection.get(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const found = await projection.byCombinedTicker(` ${pre.ticker.toLowerCase()} `);
    expect(found.id).toBe(pre.id);
    expect(found.combinedTicker).toBe(`${pre.ticker}:ASX`);
    await expect(projection.byCombinedTicker('NOPE1:ASX')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(projection.byCombinedTicker('A:B:C')).rejects.toBeInstanceOf(AppError);
  });
});
