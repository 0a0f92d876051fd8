import { INestApplication } from '@nestjs/common';
import { KafkaRequester } from '@irp/platform';
import { Topics, type Reconcile, type Stock } from '@irp/proto';
import {
  createTestRequester,
  dropSchema,
  handledMessages,
  outboxEvents,
  ReceivedMessage,
  serviceTestEnv,
  TopicProbe,
  untilHandled,
  waitUntil,
} from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { announcementsService } from '../src/app.module';
import { startAnnouncementsService } from '../src/main';
import { AnnouncementStore } from '../src/ingestion/announcement-store';
import { SourceProvider } from '../src/ingestion/source-provider';
import { SystemSettingsService } from '../src/settings/system-settings.service';
import { startAsxStandIn, type AsxStandIn } from '@irp/standins/asx';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import {
  ADMIN,
  CLIENT,
  ERROR_EMAIL,
  holdSingletonJob,
  pollingEnv,
  PROJECTION_BOOTSTRAP_JOB,
  removeDataDir,
  stockEvent,
  waitForGroups,
} from './polling-harness';
import { SEND_REQUEST_TOPICS } from './announcements-fixtures';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/**
 * Reconcile: per polled stock, what the source lists for the last N days that is not stored; a run works
 * in the background with its progress readable; applying stores the findings with origin 'reconcile',
 * which are never sent automatically.
 */

const DAY = 86_400_000;
const RECONCILE_TOPICS = [
  Topics.AnnouncementsReconcileRun,
  Topics.AnnouncementsReconcileGet,
  Topics.AnnouncementsReconcileLast,
  Topics.AnnouncementsReconcileApply,
] as const;

describe('reconcile on the real broker and database', () => {
  let app: INestApplication;
  let standIn: AsxStandIn;
  let probe: TopicProbe;
  let requester: KafkaRequester;
  let db: DataSource;
  let env: NodeJS.ProcessEnv;
  let releaseBootstrap: () => Promise<void>;
  const polled: Stock[] = [];
  let run: Reconcile;

  const value = (m: ReceivedMessage) => m.value as Record<string, unknown>;
  const metricsUrl = () => `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const get = (id: string) =>
    requester.request(Topics.AnnouncementsReconcileGet, { id }).then((r) => r.reconcile);
  const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

  beforeAll(async () => {
    await dropSchema('announcements');
    releaseBootstrap = await holdSingletonJob(PROJECTION_BOOTSTRAP_JOB);
    standIn = await startAsxStandIn({ port: 0 });
    // The projection holds this file's stocks only: the other files' `stock.upserted` events were skipped
    // before this file (jest.preset.js `integration`), and its bootstrap is held above.
    probe = await TopicProbe.listen([Topics.AnnouncementDetected, ...SEND_REQUEST_TOPICS]);
    env = { ...serviceTestEnv('announcements'), ...pollingEnv(standIn, { POLL_CONCURRENCY: '2' }) };
    app = await startAnnouncementsService(env);
    db = app.get(DataSource);
    requester = await createTestRequester([...RECONCILE_TOPICS], 10_000);
    await waitForGroups(['announcements'], env.INSTANCE_ID!);
    // Nothing is polled: what the reconcile finds stays missing until it is applied.
    await app.get(SystemSettingsService).save(ADMIN, {
      announcementService: 'asx',
      errorEmail: ERROR_EMAIL,
      hourlyAutoSendLimit: 10,
      dailyAutoSendLimit: 30,
      disablePollUntil: new Date(Date.now() + 3_600_000).toISOString(),
      useNightmare: false,
    });
    const projection = app.get(StockProjectionService);
    for (let i = 1; i <= 12; i++) {
      // Switches on: were these announcements polled, they would be sent.
      const stock = stockEvent({
        ticker: `REC${i}`,
        sendPriceSensitiveAnnouncements: true,
        sendNonPriceSensitiveAnnouncements: true,
      });
      await projection.apply(stock);
      polled.push(stock);
    }
    await projection.apply(stockEvent({ ticker: 'NOPOLL', pollAsx: false }));
    standIn.publish({ ticker: 'NOPOLL', headline: 'Not polled', releasedAt: ago(1) });
    // REC1: one announcement stored already, one missing, one older than the window.
    standIn.publish({ ticker: 'REC1', headline: 'Stored already', releasedAt: ago(1) });
    const source = await app.get(SourceProvider).get();
    await app.get(AnnouncementStore).storeDetected(polled[0], await source.latest('REC1'), 'initial-poll');
    standIn.publish({ ticker: 'REC1', headline: 'Missing recent', priceSensitive: true, releasedAt: ago(2) });
    standIn.publish({ ticker: 'REC1', headline: 'Too old', releasedAt: ago(20) });
    // REC2: one missing.
    standIn.publish({ ticker: 'REC2', headline: 'Missing too', releasedAt: ago(3) });
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
    await probe?.close();
    await standIn?.close();
    removeDataDir(env);
    await releaseBootstrap?.();
  });

  it('runs in the background: answers at once, shows progress, then per ticker what is missing', async () => {
    await expect(
      requester.request(Topics.AnnouncementsReconcileRun, { actor: CLIENT, numDays: 7 }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // Each feed answer takes a while, two stocks at a time: the progress can be watched.
    standIn.delayNext(12, 300);
    run = (await requester.request(Topics.AnnouncementsReconcileRun, { actor: ADMIN, numDays: 7 })).reconcile;
    expect(run).toMatchObject({ status: 'running', numDays: 7, checked: 0, results: [], applied: null });
    // The projection holds this file's stocks only (beforeAll): REC1..REC12, not NOPOLL.
    expect(run.total).toBe(12);
    const total = 12;

    const seen = new Set<number>();
    await waitUntil(
      'the reconcile completed',
      async () => {
        const now = await get(run.id);
        seen.add(now.checked);
        return now.status === 'completed';
      },
      30_000,
      100,
    );
    expect([...seen].some((n) => n > 0 && n < total)).toBe(true);
    const done = await get(run.id);
    expect(done).toMatchObject({ status: 'completed', checked: total, total, error: null });
    expect(done.completedAt).not.toBeNull();
    expect(done.results).toEqual([
      {
        ticker: 'REC1',
        newAnnouncements: [{ date: expect.any(String), headline: 'Missing recent', priceSensitive: true }],
      },
      {
        ticker: 'REC2',
        newAnnouncements: [{ date: expect.any(String), headline: 'Missing too', priceSensitive: false }],
      },
    ]);
    expect((await requester.request(Topics.AnnouncementsReconcileLast, {})).reconcile?.id).toBe(run.id);
  });

  it('applies a completed run once: stored with origin reconcile, their PDFs fetched, nothing sent', async () => {
    await expect(
      requester.request(Topics.AnnouncementsReconcileApply, { actor: CLIENT, id: run.id }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const since = probe.received.length;
    const detectedHandled = await handledMessages(metricsUrl(), Topics.AnnouncementDetected);
    const applied = (
      await requester.request(Topics.AnnouncementsReconcileApply, { actor: ADMIN, id: run.id })
    ).reconcile;
    expect(applied).toMatchObject({ id: run.id, status: 'applied', applied: 2 });

    const stored: Array<{ headline: string; origin: string; auto_send: string; file_status: string }> =
      await db.query(
        `SELECT headline, origin, auto_send, file_status FROM announcements.announcements WHERE origin = 'reconcile' ORDER BY headline`,
      );
    expect(stored.map((r) => [r.headline, r.origin, r.auto_send])).toEqual([
      ['Missing recent', 'reconcile', 'not-automatic'],
      ['Missing too', 'reconcile', 'not-automatic'],
    ]);
    await waitUntil('their PDFs stored', async () =>
      (
        (await db.query(
          `SELECT file_status FROM announcements.announcements WHERE origin = 'reconcile'`,
        )) as Array<{ file_status: string }>
      ).every((r) => r.file_status === 'stored'),
    );
    await waitUntil(
      'their detected events',
      () => probe.received.slice(since).filter((m) => m.topic === Topics.AnnouncementDetected).length === 2,
    );
    expect(
      probe.received
        .slice(since)
        .every((m) => m.topic !== Topics.AnnouncementDetected || value(m).origin === 'reconcile'),
    ).toBe(true);
    // Both detections handled by the auto-send decision, which writes a send request with its decision: none.
    await untilHandled(metricsUrl(), Topics.AnnouncementDetected, detectedHandled + 2);
    expect(await outboxEvents('announcements', SEND_REQUEST_TOPICS)).toEqual([]);
    expect(probe.received.filter((m) => SEND_REQUEST_TOPICS.includes(m.topic))).toEqual([]);

    await expect(
      requester.request(Topics.AnnouncementsReconcileApply, { actor: ADMIN, id: run.id }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This reconcile has already been applied',
    });
    // A new run finds nothing missing any more.
    const again = (await requester.request(Topics.AnnouncementsReconcileRun, { actor: ADMIN, numDays: 7 }))
      .reconcile;
    await waitUntil(
      'the second run completed',
      async () => (await get(again.id)).status === 'completed',
      30_000,
    );
    expect((await get(again.id)).results).toEqual([]);
  });

  it('marks a run whose process is gone as failed, on start and when read; such a run cannot be applied', async () => {
    const insert = async () =>
      (
        (await db.query(
          `INSERT INTO announcements.reconciles (num_days, status, total, started_by) VALUES (7, 'running', 12, 'alice') RETURNING id`,
        )) as Array<{ id: string }>
      )[0].id;
    const status = async (id: string) =>
      (
        (await db.query(`SELECT status, error FROM announcements.reconciles WHERE id = $1`, [id])) as Array<{
          status: string;
          error: string;
        }>
      )[0];

    const onStart = await insert();
    const another = await announcementsService.context({ ...env, ROLES: 'api' });
    await another.close();
    expect(await status(onStart)).toEqual({ status: 'failed', error: 'interrupted by a restart' });

    const onRead = await insert();
    expect(await get(onRead)).toMatchObject({ status: 'failed', error: 'interrupted by a restart' });
    await expect(
      requester.request(Topics.AnnouncementsReconcileApply, { actor: ADMIN, id: onRead }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
