import { INestApplication } from '@nestjs/common';
import { consumerGroupOf } from '@irp/platform';
import { Topics } from '@irp/proto';
import {
  databaseOutage,
  DlqProbe,
  dropSchema,
  loadTestEnv,
  rawProducer,
  readCounter,
  serviceTestEnv,
  untilOutboxPublished,
  waitUntil,
} from '@irp/platform/testing';
import type { Producer } from 'kafkajs';
import { Client } from 'pg';
import { startAnnouncementsService } from '../src/main';
import { SystemSettingsService } from '../src/settings/system-settings.service';
import { startAsxStandIn, type AsxStandIn } from '@irp/standins/asx';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import {
  ADMIN,
  changed,
  completedInitialPollsSql,
  ERROR_EMAIL,
  pollingEnv,
  removeDataDir,
  stockEvent,
  waitForGroups,
} from './polling-harness';
import { SEND_REQUEST_TOPICS } from './announcements-fixtures';

jest.setTimeout(300_000);

const HANDLED_TOPICS = [
  Topics.AnnouncementsPollRequested,
  Topics.AnnouncementDetected,
  Topics.InitialPollRequested,
];

/**
 * The platform's handler reliability policy in the poller role: announcements keep appearing at the source,
 * and poll requests keep arriving, while the service's database connections are terminated again and again
 * (as in a Postgres restart); once the database is back every announcement is stored and its automatic send
 * decided exactly once (the poll and auto-send handlers rode the outage out), nothing in the DLQ.
 */
describe('announcements handlers through a database outage', () => {
  let app: INestApplication;
  let standIn: AsxStandIn;
  let dlq: DlqProbe;
  let env: NodeJS.ProcessEnv;
  /** The test's own connection: the service's pool is the one being cut. */
  let pg: Client;
  /** Poll requests as the scheduler sends them: the test's own, so they keep arriving during the outage. */
  let producer: Producer;

  beforeAll(async () => {
    await dropSchema('announcements');
    standIn = await startAsxStandIn({ port: 0 });
    env = {
      ...serviceTestEnv('announcements'),
      ...pollingEnv(standIn, { ROLES: 'scheduler,poller' }),
      HANDLER_RETRY_MAX_DELAY_MS: '1000',
    };
    app = await startAnnouncementsService(env);
    await app.get(SystemSettingsService).save(ADMIN, {
      announcementService: 'asx',
      errorEmail: ERROR_EMAIL,
      hourlyAutoSendLimit: 1000,
      dailyAutoSendLimit: 1000,
      disablePollUntil: null,
      useNightmare: false,
    });
    await waitForGroups([consumerGroupOf('announcements', 'poller')], env.INSTANCE_ID!);
    dlq = await DlqProbe.listen(HANDLED_TOPICS);
    pg = new Client({ connectionString: loadTestEnv().DATABASE_URL, application_name: 'test-checks' });
    await pg.connect();
    producer = await rawProducer();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await pg?.end();
    await app?.close();
    await dlq?.close();
    await standIn?.close();
    removeDataDir(env);
  });

  it('stores every announcement published during the outage once and decides its send once, none to the DLQ', async () => {
    const stock = stockEvent({ ticker: 'OUTG', sendPriceSensitiveAnnouncements: true });
    await app.get(StockProjectionService).apply(stock);
    // Polled only once its initial poll has completed (announcements' own record of it).
    await pg.query(completedInitialPollsSql('s.id = $1'), [stock.id]);
    const metricsUrl = `http://127.0.0.1:${app.getHttpServer().address().port}`;
    const retriesBefore = await readCounter(metricsUrl, 'irp_handler_retries_total');

    const outage = databaseOutage(['announcements', 'outbox-relay:announcements'], 6000, 20);
    const headlines: string[] = [];
    for (let i = 0; i < 15; i++) {
      const headline = `Outage report ${i}`;
      headlines.push(headline);
      standIn.publish({ ticker: 'OUTG', headline, priceSensitive: true });
      await producer.send({
        topic: Topics.AnnouncementsPollRequested,
        messages: [
          {
            key: stock.id,
            value: JSON.stringify({
              stockId: stock.id,
              ticker: stock.ticker,
              market: false,
              requestedAt: new Date().toISOString(),
            }),
          },
        ],
      });
      await new Promise((r) => setTimeout(r, 400));
    }
    expect(await outage).toBeGreaterThan(0);

    const rows = () =>
      pg
        .query<{ headline: string; auto_send: string | null }>(
          `SELECT headline, auto_send FROM announcements.announcements WHERE stock_id = $1 ORDER BY headline`,
          [stock.id],
        )
        .then((r) => r.rows);
    await waitUntil(
      'every announcement stored and decided',
      async () => {
        const list = await rows();
        return list.length >= headlines.length && list.every((r) => r.auto_send !== null);
      },
      45_000,
      200,
    );
    const stored = await rows();
    expect(stored.map((r) => r.headline)).toEqual([...headlines].sort());
    expect(stored.every((r) => r.auto_send === 'requested')).toBe(true);
    const sends = await untilOutboxPublished('announcements', SEND_REQUEST_TOPICS, stock.id);
    expect(
      sends.map((e) => (e.payload as { announcement: { headline: string } }).announcement.headline).sort(),
    ).toEqual([...headlines].sort());

    // The outage reached the handlers (they retried), and nothing went to the DLQ.
    expect(await readCounter(metricsUrl, 'irp_handler_retries_total')).toBeGreaterThan(retriesBefore);
    expect(await dlq.rejected()).toEqual([]);
    await app.get(StockProjectionService).apply(changed(stock, { pollAsx: false }));
  });
});
