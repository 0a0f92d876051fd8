import { INestApplication } from '@nestjs/common';
import { Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { createTestRequester, dropSchema, serviceTestEnv } from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { startReportsService } from '../src/main';

/** The reports service on the real broker and database: it boots, migrates its schema and answers. */
describe('reports service on the real broker and database', () => {
  let app: INestApplication;
  let requester: KafkaRequester;

  beforeAll(async () => {
    await dropSchema('reports');
    app = await startReportsService(serviceTestEnv());
    requester = await createTestRequester([Topics.ReportsPing]);
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
  });

  it('answers its ping through Kafka', async () => {
    const reply = await requester.request(Topics.ReportsPing, {});
    expect(reply.service).toBe('reports');
    expect(new Date(reply.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('has migrated its schema, outbox included', async () => {
    const [row] = await app.get(DataSource).query(`SELECT to_regclass('reports.outbox') AS outbox`);
    expect(row.outbox).toBe('reports.outbox');
  });

  it('reports healthy on /health', async () => {
    const { port } = app.getHttpServer().address();
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });
});
