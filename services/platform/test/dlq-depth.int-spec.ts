import { INestApplication } from '@nestjs/common';
import { DlqPublisher } from '@irp/platform';
import { dropSchema, rawProducer, readCounter, serviceTestEnv, waitUntil } from '@irp/platform/testing';
import { dlqTopic, Topics } from '@irp/proto';
import { Producer } from 'kafkajs';
import { PROJECTION_FIXTURE_SCHEMA, projectionFixtureService } from './fixtures/projection-fixture-service';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/**
 * `irp_dlq_depth` on a service's /metrics is what the broker holds in the `.dlq` topics of the topics it
 * handles (the fixture service handles `stock.upserted`), read on the scrape: a message sent to that DLQ by
 * any process, not this one, shows on the next read.
 */
describe('DLQ depth on /metrics', () => {
  let app: INestApplication;
  let producer: Producer;
  let metricsUrl: string;
  const topic = dlqTopic(Topics.StockUpserted);
  const depth = () => readCounter(metricsUrl, 'irp_dlq_depth', { topic });

  beforeAll(async () => {
    await dropSchema(PROJECTION_FIXTURE_SCHEMA);
    app = await projectionFixtureService.start(serviceTestEnv());
    metricsUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    producer = await rawProducer();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await app?.close();
  });

  it('shows a message another process sent to the DLQ', async () => {
    // A scrape reads the depth from the broker within 2 s or leaves the line out (a scrape never hangs): on
    // a busy machine the first scrapes may come without it.
    const line = new RegExp(`^irp_dlq_depth\\{[^}]*topic="${topic.replace(/\./g, '\\.')}"`, 'm');
    await waitUntil(
      'the DLQ depth line on /metrics',
      async () => line.test(await (await fetch(`${metricsUrl}/metrics`)).text()),
      30_000,
      500,
    );
    const before = await depth();

    // Through the test's own producer, not the service's: the depth is what the broker holds.
    await new DlqPublisher(producer).publish(Topics.StockUpserted, { not: 'a stock' }, 'test: dlq depth');

    await waitUntil(
      'the DLQ depth counts the message',
      async () => (await depth()) === before + 1,
      20_000,
      500,
    );
  });
});
