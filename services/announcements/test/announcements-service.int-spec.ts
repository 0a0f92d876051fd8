import { INestApplication } from '@nestjs/common';
import { Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { DataSource } from 'typeorm';
import { AnnouncementsHarness } from './announcements-harness';

/** Ping, schema and health of the announcements service on the real broker and database. */
describe("announcements service: the scaffold's checks", () => {
  const h = new AnnouncementsHarness();
  let app: INestApplication;
  let requester: KafkaRequester;
  let db: DataSource;

  beforeAll(async () => {
    await h.start();
    ({ app, requester, db } = h);
  });

  afterAll(() => h.stop());

  it('answers its ping through Kafka', async () => {
    const reply = await requester.request(Topics.AnnouncementsPing, {});
    expect(reply.service).toBe('announcements');
    expect(new Date(reply.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('has migrated its schema, outbox included', async () => {
    const [r] = await db.query(`SELECT to_regclass('announcements.outbox') AS outbox`);
    expect(r.outbox).toBe('announcements.outbox');
    const names = (await db.query(`SELECT name FROM announcements.migrations`)).map(
      (m: { name: string }) => m.name,
    );
    expect(names).toContain('CreateAnnouncements1795468640785');
  });

  it('reports healthy on /health', async () => {
    const { port } = app.getHttpServer().address();
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });
});
