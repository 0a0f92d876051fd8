import { INestApplication } from '@nestjs/common';
import { AppError, consumerGroupOf, KafkaRequester } from '@irp/platform';
import { Topics, type Stock } from '@irp/proto';
import {
  createTestRequester,
  dropSchema,
  handledMessages,
  outboxEvents,
  rawProducer,
  ReceivedMessage,
  serviceTestEnv,
  TopicProbe,
  untilHandled,
  untilOutboxPublished,
  waitUntil,
} from '@irp/platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { startAnnouncementsService } from '../src/main';
import { sydneyYear } from '../src/ingestion/poll-rules';
import { ConsiderStock } from '../src/initial-poll/consider-stock';
import { startAsxStandIn, type AsxStandIn } from '@irp/standins/asx';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import {
  ADMIN,
  changed,
  CLIENT,
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
 * Initial polls and resyncs: started from `stock.upserted` (Poll on, no run yet), run year by year by the
 * poller role against the ASX stand-in's history, stored once, never sent automatically. This service alone
 * keeps whether a stock's initial poll completed (`announcements.initial-poll-statuses`).
 */

const THIS_YEAR = sydneyYear(new Date());

interface Row {
  id: string;
  source_key: string;
  origin: string;
  auto_send: string | null;
  file_status: string;
}

describe('initial polls on the real broker and database', () => {
  let app: INestApplication;
  let standIn: AsxStandIn;
  let probe: TopicProbe;
  let requester: KafkaRequester;
  let db: DataSource;
  let env: NodeJS.ProcessEnv;
  let releaseBootstrap: () => Promise<void>;
  let init: Stock;

  const value = (m: ReceivedMessage) => m.value as Record<string, unknown>;
  const metricsUrl = () => `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const events = (topic: string, stockId: string, since = 0) =>
    probe.received.slice(since).filter((m) => m.topic === topic && m.key === stockId);
  const rows = async (stockId: string): Promise<Row[]> =>
    db.query(`SELECT * FROM announcements.announcements WHERE stock_id = $1 ORDER BY source_key`, [stockId]);
  const runOf = async (stockId: string): Promise<{ run_id: string; status: string } | undefined> =>
    (await db.query(`SELECT * FROM announcements.initial_polls WHERE stock_id = $1`, [stockId]))[0];
  /** Waits for the stock's run (another than `notRunId`, when given) to complete; returns its run id. */
  const untilCompleted = async (stockId: string, notRunId?: string) => {
    let runId = '';
    await waitUntil(
      'the initial poll completed',
      async () => {
        const run = await runOf(stockId);
        runId = run?.run_id ?? '';
        return run?.status === 'completed' && run.run_id !== notRunId;
      },
      60_000,
    );
    return runId;
  };
  const upserted = async (stock: Stock) => {
    const producer = await rawProducer();
    try {
      await producer.send({
        topic: Topics.StockUpserted,
        messages: [{ key: stock.id, value: JSON.stringify(stock) }],
      });
    } finally {
      await producer.disconnect();
    }
  };

  beforeAll(async () => {
    await dropSchema('announcements');
    releaseBootstrap = await holdSingletonJob(PROJECTION_BOOTSTRAP_JOB);
    // Three years of the mock generator's history for these tickers.
    standIn = await startAsxStandIn({ port: 0, seedTickers: ['INIT', 'DUAL'] });
    probe = await TopicProbe.listen([
      Topics.InitialPollProgressed,
      Topics.AnnouncementDetected,
      ...SEND_REQUEST_TOPICS,
    ]);
    env = { ...serviceTestEnv('announcements'), ...pollingEnv(standIn) };
    app = await startAnnouncementsService(env);
    db = app.get(DataSource);
    requester = await createTestRequester(
      [Topics.AnnouncementsResync, Topics.AnnouncementsInitialPollStatuses],
      10_000,
    );
    await waitForGroups(['announcements', consumerGroupOf('announcements', 'poller')], env.INSTANCE_ID!);
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
    await probe?.close();
    await standIn?.close();
    removeDataDir(env);
    await releaseBootstrap?.();
  });

  it('runs a stock’s initial poll from stock.upserted: started, each year in order, completed; nothing sent', async () => {
    init = stockEvent({
      ticker: 'INIT',
      announcementStartYear: THIS_YEAR - 2,
      // Every switch on: only the origin keeps these announcements from being sent.
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: true,
    });
    const detectedHandled = await handledMessages(metricsUrl(), Topics.AnnouncementDetected);
    await upserted(init);
    await untilCompleted(init.id);
    // Progress and detections are topics of their own: they may arrive in any order.
    await waitUntil('every year’s progress', () => events(Topics.InitialPollProgressed, init.id).length >= 3);
    expect(await outboxEvents('announcements', Topics.InitialPollRequested, init.id)).toHaveLength(1);
    const progressed = events(Topics.InitialPollProgressed, init.id).map(value);
    expect(progressed.map((p) => p.currentYear)).toEqual([THIS_YEAR - 2, THIS_YEAR - 1, THIS_YEAR]);
    expect(progressed.every((p) => p.fromYear === THIS_YEAR - 2 && p.toYear === THIS_YEAR)).toBe(true);
    // Found counts grow with each year, to every announcement the source holds for the ticker.
    const history = standIn.announcements('INIT');
    const perYear = [THIS_YEAR - 2, THIS_YEAR - 1, THIS_YEAR].map(
      (y) => history.filter((a) => sydneyYear(new Date(a.releasedAt)) <= y).length,
    );
    expect(progressed.map((p) => p.found)).toEqual(perYear);

    const stored = await rows(init.id);
    expect(stored.map((r) => r.source_key).sort()).toEqual(history.map((a) => a.id).sort());
    expect(stored.every((r) => r.origin === 'initial-poll' && r.auto_send === 'not-automatic')).toBe(true);
    expect(stored.every((r) => r.file_status === 'stored')).toBe(true);
    await waitUntil(
      'a detected event for each',
      () => events(Topics.AnnouncementDetected, init.id).length >= history.length,
    );
    expect(events(Topics.AnnouncementDetected, init.id)).toHaveLength(history.length);
    expect(
      events(Topics.AnnouncementDetected, init.id).every((m) => value(m).origin === 'initial-poll'),
    ).toBe(true);
    const [poll] = await db.query(`SELECT * FROM announcements.initial_polls WHERE stock_id = $1`, [init.id]);
    expect(poll).toMatchObject({
      status: 'completed',
      found: history.length,
      current_year: THIS_YEAR,
      error: null,
    });

    // Every detection handled by the auto-send decision, which writes a send request with its decision: none.
    await untilHandled(metricsUrl(), Topics.AnnouncementDetected, detectedHandled + history.length);
    expect(await outboxEvents('announcements', SEND_REQUEST_TOPICS, init.id)).toEqual([]);
    expect(SEND_REQUEST_TOPICS.flatMap((topic) => events(topic, init.id))).toEqual([]);
  });

  it('keeps the run as its own: statuses by stock, no second run on a change, a new one after Poll off and on', async () => {
    const firstRun = (await runOf(init.id))!.run_id;
    const other = randomUUID();
    expect(
      await requester.request(Topics.AnnouncementsInitialPollStatuses, { stockIds: [init.id, other] }),
    ).toEqual({ statuses: { [init.id]: 'completed' } });

    // Any later change of the stock (a save) starts nothing: the run completed.
    const requested = await handledMessages(metricsUrl(), Topics.StockUpserted);
    init = changed(init, { companyName: 'Init Renamed' });
    await upserted(init);
    await untilHandled(metricsUrl(), Topics.StockUpserted, requested + 1);
    expect((await runOf(init.id))!.run_id).toBe(firstRun);
    expect(await outboxEvents('announcements', Topics.InitialPollRequested, init.id)).toHaveLength(1);

    // Poll off: the run is forgotten (polling off counts as complete, the gateway says so from pollAsx).
    init = changed(init, { pollAsx: false });
    await upserted(init);
    await waitUntil('the run forgotten', async () => (await runOf(init.id)) === undefined);
    expect(await requester.request(Topics.AnnouncementsInitialPollStatuses, { stockIds: [init.id] })).toEqual(
      { statuses: {} },
    );

    // Poll on again: a new initial poll (spec section 4), which stores nothing twice.
    const before = await rows(init.id);
    init = changed(init, { pollAsx: true });
    await upserted(init);
    await untilCompleted(init.id, firstRun);
    expect(await outboxEvents('announcements', Topics.InitialPollRequested, init.id)).toHaveLength(2);
    expect((await rows(init.id)).map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it('resyncs on request (admins only): a new run that stores nothing twice', async () => {
    const before = await rows(init.id);
    await expect(
      requester.request(Topics.AnnouncementsResync, { actor: CLIENT, combinedTicker: 'INIT:ASX' }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const since = probe.received.length;
    const previousRun = (await runOf(init.id))!.run_id;
    const { initialPoll } = await requester.request(Topics.AnnouncementsResync, {
      actor: ADMIN,
      combinedTicker: 'INIT',
    });
    expect(initialPoll).toMatchObject({
      stockId: init.id,
      status: 'running',
      fromYear: THIS_YEAR - 2,
      toYear: THIS_YEAR,
      currentYear: null,
      found: 0,
      completedAt: null,
    });
    await untilCompleted(init.id, previousRun);
    await waitUntil(
      'every year’s progress',
      () => events(Topics.InitialPollProgressed, init.id, since).length >= 3,
    );
    expect(await outboxEvents('announcements', Topics.InitialPollRequested, init.id)).toHaveLength(3);
    expect(events(Topics.InitialPollProgressed, init.id, since).map((m) => value(m).found)).toEqual([
      0, 0, 0,
    ]);
    expect((await rows(init.id)).map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(events(Topics.AnnouncementDetected, init.id, since)).toEqual([]);
  });

  it('ignores the request of a superseded run', async () => {
    const [before] = await db.query(`SELECT * FROM announcements.initial_polls WHERE stock_id = $1`, [
      init.id,
    ]);
    const since = probe.received.length;
    const progressedBefore = await outboxEvents('announcements', Topics.InitialPollProgressed, init.id);
    const requestsHandled = await handledMessages(metricsUrl(), Topics.InitialPollRequested);
    const producer = await rawProducer();
    try {
      await producer.send({
        topic: Topics.InitialPollRequested,
        messages: [
          {
            key: init.id,
            value: JSON.stringify({
              stockId: init.id,
              runId: randomUUID(),
              ticker: 'INIT',
              fromYear: THIS_YEAR - 2,
              toYear: THIS_YEAR,
            }),
          },
        ],
      });
    } finally {
      await producer.disconnect();
    }
    await untilHandled(metricsUrl(), Topics.InitialPollRequested, requestsHandled + 1);
    expect(await outboxEvents('announcements', Topics.InitialPollProgressed, init.id)).toHaveLength(
      progressedBefore.length,
    );
    expect(events(Topics.InitialPollProgressed, init.id, since)).toEqual([]);
    const [after] = await db.query(`SELECT * FROM announcements.initial_polls WHERE stock_id = $1`, [
      init.id,
    ]);
    expect(after).toEqual(before);
  });

  it('starts one run when two instances consider the same stock at once', async () => {
    const dual = stockEvent({ ticker: 'DUAL', announcementStartYear: THIS_YEAR });
    const projected = await app.get(StockProjectionService).apply(dual);
    const service = app.get(ConsiderStock);
    await Promise.all([
      service.consider(projected!),
      service.consider(projected!),
      service.consider(projected!),
    ]);
    await untilCompleted(dual.id);
    await waitUntil('its progress', () => events(Topics.InitialPollProgressed, dual.id).length >= 1);
    // The three calls have returned: the outbox holds every run request they wrote.
    expect(await untilOutboxPublished('announcements', Topics.InitialPollRequested, dual.id)).toHaveLength(1);
    expect(events(Topics.InitialPollProgressed, dual.id).map((m) => value(m).currentYear)).toEqual([
      THIS_YEAR,
    ]);
  });

  it('answers an unknown stock’s resync with NOT_FOUND', async () => {
    const error = await requester
      .request(Topics.AnnouncementsResync, { actor: ADMIN, combinedTicker: 'NOPE:ASX' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('NOT_FOUND');
  });
});
