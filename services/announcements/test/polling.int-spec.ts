import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { consumerGroupOf } from '@irp/platform';
import { Topics, type Stock, type SystemSettings } from '@irp/proto';
import {
  committedOffsets,
  dropSchema,
  handledMessages,
  readCounter,
  ReceivedMessage,
  serviceTestEnv,
  topicEnds,
  TopicProbe,
  untilHandled,
  untilOutboxPublished,
  untilProbeAtEnd,
  waitUntil,
} from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { announcementsService } from '../src/app.module';
import { startAnnouncementsService } from '../src/main';
import { AnnouncementStore } from '../src/ingestion/announcement-store';
import { POLL_SCHEDULER_JOB, PollScheduler } from '../src/scheduling/poll-scheduler';
import { PollService } from '../src/polling/poll.service';
import { SystemSettingsService } from '../src/settings/system-settings.service';
import { startAsxStandIn, type AsxStandIn } from '@irp/standins/asx';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import {
  completedInitialPollsSql,
  ADMIN,
  changed,
  ERROR_EMAIL,
  pollingEnv,
  removeDataDir,
  skipBacklog,
  stockEvent,
  waitForGroups,
} from './polling-harness';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/**
 * The polling engine in one process with all its roles, on the real broker and database, polling the ASX
 * stand-in over HTTP: the scheduler publishes poll work, pollers store each announcement once, publish
 * `announcement.detected` and store its PDF.
 */

interface Row {
  id: string;
  source_key: string;
  headline: string;
  released_at: Date;
  origin: string;
  file_status: string;
  file_problem: string | null;
  local_path: string | null;
  file_size: string | null;
  auto_send: string | null;
}

describe('polling on the real broker and database', () => {
  let app: INestApplication;
  let standIn: AsxStandIn;
  let probe: TopicProbe;
  let db: DataSource;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let alpha: Stock;
  let pollRequestsAtJoin: Map<number, bigint>;
  const metricsUrl = () => `http://127.0.0.1:${app.getHttpServer().address().port}`;

  /** Projects a stock as one whose initial poll completed (the scheduler polls it while Poll is on). */
  const apply = async (stock: Stock) => {
    const applied = await app.get(StockProjectionService).apply(stock);
    await db.query(completedInitialPollsSql('s.id = $1'), [stock.id]);
    return applied;
  };
  const rows = async (stockId: string): Promise<Row[]> =>
    db.query(`SELECT * FROM announcements.announcements WHERE stock_id = $1 ORDER BY released_at`, [stockId]);
  const settings = (changes: Partial<SystemSettings>) =>
    app.get(SystemSettingsService).save(ADMIN, {
      announcementService: 'asx',
      errorEmail: ERROR_EMAIL,
      hourlyAutoSendLimit: 10,
      dailyAutoSendLimit: 30,
      disablePollUntil: null,
      useNightmare: false,
      ...changes,
    });
  const received = (topic: string, test: (m: ReceivedMessage) => boolean = () => true) =>
    probe.received.filter((m) => m.topic === topic && test(m));
  const value = (m: ReceivedMessage) => m.value as Record<string, unknown>;
  const detectedOf = (stockId: string) => received(Topics.AnnouncementDetected, (m) => m.key === stockId);
  const healthOf = async (): Promise<{ failure_streak: number; reported_at: Date | null } | undefined> =>
    (await db.query(`SELECT * FROM announcements.source_health WHERE source = 'asx'`))[0];

  beforeAll(async () => {
    await dropSchema('announcements');
    standIn = await startAsxStandIn({ port: 0 });
    probe = await TopicProbe.listen([
      Topics.AnnouncementsPollRequested,
      Topics.AnnouncementsMarketItemsListed,
      Topics.AnnouncementDetected,
      Topics.ErrorReported,
    ]);
    pollRequestsAtJoin = await topicEnds(Topics.AnnouncementsPollRequested);
    // The roles under test; the api role's projection bootstrap would wait for a stocks service.
    env = {
      ...serviceTestEnv('announcements'),
      ...pollingEnv(standIn, {
        SOURCE_FAILURE_STREAK: '2',
        SOURCE_TIMEOUT_MS: '1000',
        ROLES: 'scheduler,poller',
      }),
    };
    dataDir = env.DATA_DIR!;
    app = await startAnnouncementsService(env);
    db = app.get(DataSource);
    await settings({});
    await waitForGroups(
      [
        consumerGroupOf('announcements', 'poller'),
        consumerGroupOf('announcements', 'poller', 'market-items'),
      ],
      env.INSTANCE_ID!,
    );
  });

  afterAll(async () => {
    await app?.close();
    await probe?.close();
    await standIn?.close();
    removeDataDir(env);
  });

  it('polls a due stock, stores a new announcement once, publishes announcement.detected and stores its PDF', async () => {
    alpha = stockEvent({ ticker: 'ALPHA' });
    await apply(alpha);
    const published = standIn.publish({
      ticker: 'ALPHA',
      headline: 'Quarterly Activities Report',
      priceSensitive: true,
    });

    const detected = await probe.waitFor(
      (m) => m.topic === Topics.AnnouncementDetected && m.key === alpha.id,
      15_000,
    );
    expect(value(detected)).toMatchObject({
      stockId: alpha.id,
      combinedTicker: 'ALPHA:ASX',
      origin: 'poll',
      // The ASX feed states release times to the second.
      releasedAt: new Date(Math.floor(Date.parse(published.releasedAt) / 1000) * 1000).toISOString(),
      announcement: {
        headline: 'Quarterly Activities Report',
        priceSensitive: true,
        origin: 'poll',
        autoSend: null,
      },
    });
    await waitUntil(
      'the PDF stored',
      async () => (await rows(alpha.id))[0]?.file_status === 'stored',
      15_000,
    );
    const [row] = await rows(alpha.id);
    expect(row).toMatchObject({ source_key: published.id, origin: 'poll', file_problem: null });
    const file = readFileSync(join(dataDir, row.local_path!));
    expect(file.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(Number(row.file_size)).toBe(file.length);

    // Later polls (ALPHA is the only stock) handled to the end find it stored: one row, and one event in the
    // outbox the relay publishes from, which would hold a second one.
    const handled = await handledMessages(metricsUrl(), Topics.AnnouncementsPollRequested);
    await untilHandled(metricsUrl(), Topics.AnnouncementsPollRequested, handled + 2);
    expect(await rows(alpha.id)).toHaveLength(1);
    expect(await untilOutboxPublished('announcements', Topics.AnnouncementDetected, alpha.id)).toHaveLength(
      1,
    );
    expect(detectedOf(alpha.id)).toHaveLength(1);
    const metrics = await (
      await fetch(`http://127.0.0.1:${app.getHttpServer().address().port}/metrics`)
    ).text();
    expect(metrics).toMatch(/irp_announcements_detected_total\{origin="poll"[^}]*\} \d+/);
  });

  it('does not poll archived, expired, switched-off or still-syncing stocks', async () => {
    const others = [
      stockEvent({ ticker: 'ARCH', archived: true }),
      stockEvent({ ticker: 'EXPD', subscriptionExpired: true }),
      stockEvent({ ticker: 'OFF', pollAsx: false }),
      stockEvent({ ticker: 'SYNC', announcementStartYear: 2100 }),
    ];
    for (const stock of others) {
      // SYNC's initial poll has not completed: a run of it is under way.
      if (stock.ticker === 'SYNC') {
        await app.get(StockProjectionService).apply(stock);
        await db.query(
          `INSERT INTO announcements.initial_polls (stock_id, run_id, status, from_year, to_year, found, started_at)
           VALUES ($1, gen_random_uuid(), 'running', 2100, 2100, 0, now())`,
          [stock.id],
        );
      } else await apply(stock);
      standIn.publish({ ticker: stock.ticker, headline: 'Trading Halt', priceSensitive: true });
    }
    const ids = new Set(others.map((s) => s.id));
    const start = probe.received.length;
    await waitUntil(
      'two ticks',
      () =>
        probe.received
          .slice(start)
          .filter((m) => m.key === alpha.id && m.topic === Topics.AnnouncementsPollRequested).length >= 2,
    );
    expect(probe.received.filter((m) => m.key !== null && ids.has(m.key))).toEqual([]);
    for (const stock of others) expect(await rows(stock.id)).toEqual([]);
  });

  it('publishes nothing while polling is disabled, and polls again after', async () => {
    await settings({ disablePollUntil: new Date(Date.now() + 3_600_000).toISOString() });
    const disabledAt = Date.now();
    expect(await app.get(PollScheduler).tick()).toMatchObject({ published: 0, skipped: 'polling-disabled' });
    // A poll that passed its settings check before the switch may still be reading the source (a 1 s tick, a
    // loaded machine): it finishes before the item is published, or it would rightly store it.
    await waitUntil(
      'no poll in flight',
      async () =>
        (await readCounter(metricsUrl(), 'irp_kafka_handlers_in_flight', {
          topic: Topics.AnnouncementsPollRequested,
        })) === 0,
    );
    const published = standIn.publish({
      ticker: 'ALPHA',
      headline: 'Response to ASX Price Query',
      priceSensitive: true,
    });
    // Two of the scheduler's own ticks run to their end meanwhile, and the probe reads the topic as far as
    // they could have written: no tick since publishes.
    const ticks = await readCounter(metricsUrl(), 'irp_singleton_job_runs_total', {
      job: POLL_SCHEDULER_JOB,
    });
    await waitUntil(
      'two scheduler ticks',
      async () =>
        (await readCounter(metricsUrl(), 'irp_singleton_job_runs_total', { job: POLL_SCHEDULER_JOB })) >=
        ticks + 2,
    );
    await untilProbeAtEnd(probe, Topics.AnnouncementsPollRequested, pollRequestsAtJoin);
    // A request queued before the switch, handled now, polls nothing either.
    await app.get(PollService).handle({
      stockId: alpha.id,
      ticker: 'ALPHA',
      market: false,
      requestedAt: new Date().toISOString(),
    });
    expect((await rows(alpha.id)).some((r) => r.source_key === published.id)).toBe(false);
    expect(
      received(
        Topics.AnnouncementsPollRequested,
        (m) => Date.parse(String(value(m).requestedAt)) > disabledAt,
      ),
    ).toEqual([]);
    expect(await rows(alpha.id)).toHaveLength(1);

    await settings({ disablePollUntil: null });
    await probe.waitFor(
      (m) =>
        m.topic === Topics.AnnouncementDetected &&
        value(m).announcement !== undefined &&
        (value(m).announcement as { headline: string }).headline === 'Response to ASX Price Query',
      15_000,
    );
    expect(await rows(alpha.id)).toHaveLength(2);
  });

  it('fans a market-wide (asx2) poll out to the stocks’ pollers with the items found', async () => {
    const beta = stockEvent({ ticker: 'BETA' });
    const gamma = stockEvent({ ticker: 'GAMMA' });
    await apply(beta);
    await apply(gamma);
    await settings({ announcementService: 'asx2' });
    const switchedAt = Date.now();
    const b = standIn.publish({ ticker: 'BETA', headline: 'Half Year Results', priceSensitive: true });
    const g = standIn.publish({ ticker: 'GAMMA', headline: 'Investor Presentation', priceSensitive: true });

    // The fan-out: per stock, keyed by its id, carrying that ticker's items, on a topic of its own.
    const fanned = await probe.waitFor(
      (m) =>
        m.topic === Topics.AnnouncementsMarketItemsListed &&
        m.key === beta.id &&
        (value(m).items as unknown[]).length > 0,
      15_000,
    );
    expect(value(fanned)).toMatchObject({ stockId: beta.id, ticker: 'BETA' });
    expect((value(fanned).items as Array<{ ticker: string }>).every((i) => i.ticker === 'BETA')).toBe(true);
    await probe.waitFor((m) => m.topic === Topics.AnnouncementDetected && m.key === beta.id, 15_000);
    await probe.waitFor((m) => m.topic === Topics.AnnouncementDetected && m.key === gamma.id, 15_000);
    // Taken by the pollers' consumer of its own (services/manifest.json `consumers`), not the role's group,
    // which works through the market reads: a store never waits behind the next read.
    const itemsGroup = consumerGroupOf('announcements', 'poller', 'market-items');
    await waitUntil('the fan-out committed by the market-items consumer', async () => {
      const committed = await committedOffsets(itemsGroup, Topics.AnnouncementsMarketItemsListed);
      return (committed.get(fanned.partition) ?? -1n) > BigInt(fanned.offset);
    });
    const roleGroup = await committedOffsets(
      consumerGroupOf('announcements', 'poller'),
      Topics.AnnouncementsMarketItemsListed,
    );
    expect([...roleGroup.values()].every((offset) => offset < 0n)).toBe(true);
    // The scheduler's requests since the switch: one market-wide request per tick, none per stock.
    const polls = probe.received.filter(
      (m) =>
        m.topic === Topics.AnnouncementsPollRequested &&
        Date.parse(String(value(m).requestedAt)) > switchedAt,
    );
    expect(polls.some((m) => value(m).market === true)).toBe(true);
    expect(polls.filter((m) => value(m).market === true).every((m) => value(m).stockId === null)).toBe(true);
    expect(polls.filter((m) => m.key === beta.id)).toEqual([]);

    await waitUntil('both PDFs stored', async () =>
      [...(await rows(beta.id)), ...(await rows(gamma.id))].every((r) => r.file_status === 'stored'),
    );
    expect((await rows(beta.id)).map((r) => r.source_key)).toEqual([b.id]);
    expect((await rows(gamma.id)).map((r) => r.source_key)).toEqual([g.id]);
    await settings({ announcementService: 'asx' });
    // Back to per-stock polling; BETA and GAMMA are left out of the failure counts that follow.
    await apply(changed(beta, { pollAsx: false }));
    await apply(changed(gamma, { pollAsx: false }));
  });

  it('gives a stock polled since the last market read the items that read passed over', async () => {
    // DELTA is polled; ECHO waits archived with its initial poll done, so un-archiving it polls it at once
    // (no initial poll reads its history). A market read reads only what is newer than its last read.
    const delta = stockEvent({ ticker: 'DELTA' });
    const echo = stockEvent({ ticker: 'ECHO', archived: true });
    await apply(delta);
    await apply(echo);
    await settings({ announcementService: 'asx2' });
    try {
      const passedOver = standIn.publish({ ticker: 'ECHO', headline: 'Quarterly Activities Report' });
      // A page of a ticker nobody polls pushes ECHO's item to the feed's second page; DELTA's item, newest,
      // shows that a read of the first page has happened since.
      for (let i = 0; i < 100; i++) standIn.publish({ ticker: 'ZULU', headline: `Change of Director ${i}` });
      standIn.publish({ ticker: 'DELTA', headline: 'Appendix 4C' });
      await probe.waitFor((m) => m.topic === Topics.AnnouncementDetected && m.key === delta.id, 15_000);

      await apply(changed(echo, { archived: false }));
      await probe.waitFor((m) => m.topic === Topics.AnnouncementDetected && m.key === echo.id, 15_000);
      expect((await rows(echo.id)).map((r) => r.source_key)).toEqual([passedOver.id]);
    } finally {
      // Back to per-stock polling, DELTA and ECHO left out of what follows, whatever happened here.
      await settings({ announcementService: 'asx' });
      await apply(changed(delta, { pollAsx: false }));
      await apply(changed(echo, { pollAsx: false }));
    }
  });

  it('retries a failing or slow source within the poll: the announcement is still found, no failure counted', async () => {
    standIn.failNext(2, 503);
    standIn.delayNext(1, 1500); // over SOURCE_TIMEOUT_MS: that try times out
    standIn.publish({ ticker: 'ALPHA', headline: 'Becoming a substantial holder' });
    await probe.waitFor(
      (m) =>
        m.topic === Topics.AnnouncementDetected &&
        (value(m).announcement as { headline: string }).headline === 'Becoming a substantial holder',
      20_000,
    );
    expect((await healthOf())?.failure_streak ?? 0).toBe(0);
    expect(received(Topics.ErrorReported)).toEqual([]);
  });

  it('counts polls that fail after their retries, requests the error email once per streak and resets on success', async () => {
    const reports = () =>
      received(Topics.ErrorReported, (m) => String(value(m).key).startsWith('source-failing:asx:'));
    // More due stocks fail in parallel (one per partition), so a streak builds in one round of retries.
    const more = [stockEvent({ ticker: 'FAILA' }), stockEvent({ ticker: 'FAILB' })];
    for (const stock of more) await apply(stock);
    standIn.failNext(10_000, 503);
    const first = await probe.waitFor((m) => m.topic === Topics.ErrorReported, 30_000);
    expect(value(first)).toMatchObject({
      to: ERROR_EMAIL,
      subject: 'Announcement source asx is failing',
    });
    expect(String(value(first).message)).toMatch(/^The last 2 polls of the asx announcement source failed/);
    // The streak goes on; the email is not requested again.
    await waitUntil('a longer streak', async () => ((await healthOf())?.failure_streak ?? 0) >= 4, 30_000);
    expect(reports()).toHaveLength(1);
    expect((await healthOf())?.reported_at).not.toBeNull();

    standIn.failNext(0, 503);
    await waitUntil(
      'the streak reset by a success',
      async () => (await healthOf())?.failure_streak === 0,
      20_000,
    );
    expect((await healthOf())?.reported_at).toBeNull();

    // A new streak is a new report, with a key of its own.
    standIn.failNext(10_000, 503);
    await waitUntil('a second report', () => reports().length === 2, 30_000);
    standIn.failNext(0, 503);
    expect(new Set(reports().map((m) => value(m).key)).size).toBe(2);
    await waitUntil('healthy again', async () => (await healthOf())?.failure_streak === 0, 20_000);
    for (const stock of more) await apply(changed(stock, { pollAsx: false }));
  });

  it('keeps an announcement whose document is not a PDF, flagged, without a file', async () => {
    const page = standIn.publish({ ticker: 'ALPHA', headline: 'Change of Registered Address', notPdf: true });
    await waitUntil(
      'the document refused',
      async () => (await rows(alpha.id)).find((r) => r.source_key === page.id)?.file_status === 'refused',
      20_000,
    );
    const row = (await rows(alpha.id)).find((r) => r.source_key === page.id)!;
    expect(row.file_problem).toMatch(/not a PDF|HTML/i);
    expect(row.local_path).toBeNull();
    // The event leaves through the outbox, so it may arrive a moment after the row is flagged.
    const detectedRefused = () =>
      detectedOf(alpha.id).filter(
        (m) => (value(m).announcement as { headline: string }).headline === 'Change of Registered Address',
      );
    const outboxed = (
      await untilOutboxPublished('announcements', Topics.AnnouncementDetected, alpha.id)
    ).filter(
      (e) =>
        (e.payload as { announcement: { headline: string } }).announcement.headline ===
        'Change of Registered Address',
    );
    expect(outboxed).toHaveLength(1);
    await waitUntil('its announcement.detected', () => detectedRefused().length > 0, 10_000);
    expect(detectedRefused()).toHaveLength(1);
  });

  it('stores what a restarted stand-in publishes, and counts a source key reported again with another headline or time', async () => {
    // Restarts on the same address, what a second `make up` does: a stand-in forgets what it published.
    const restart = async () => {
      const port = standIn.port;
      await standIn.close();
      standIn = await startAsxStandIn({ port });
    };
    const bravo = stockEvent({ ticker: 'BRAVO' });
    await apply(bravo);
    await restart();
    const first = standIn.publish({ ticker: 'BRAVO', headline: 'Appendix 3B' });
    await waitUntil(
      'the first run’s announcement stored',
      async () => (await rows(bravo.id)).length === 1,
      15_000,
    );

    await restart();
    const second = standIn.publish({ ticker: 'BRAVO', headline: 'Quarterly Activities Report' });
    expect(second.id).not.toBe(first.id);
    await waitUntil(
      'the second run’s announcement stored',
      async () => (await rows(bravo.id)).length === 2,
      15_000,
    );
    // Released in the same second, maybe: in the order of their keys.
    const byKey = (await rows(bravo.id)).sort((a, b) => (a.source_key < b.source_key ? -1 : 1));
    expect(byKey.map((r) => [r.source_key, r.headline])).toEqual([
      [first.id, 'Appendix 3B'],
      [second.id, 'Quarterly Activities Report'],
    ]);
    // The outbox relays each row's announcement.detected after its commit: wait for the second's.
    await waitUntil('both detected events', () => detectedOf(bravo.id).length >= 2, 15_000);
    expect(detectedOf(bravo.id)).toHaveLength(2);

    // A source that reuses a key for another announcement: not stored over the first, but counted (and
    // logged), once however often it is reported; the same item again is no conflict.
    const conflicts = () =>
      readCounter(metricsUrl(), 'irp_announcements_source_key_conflicts_total', { origin: 'poll' });
    const before = await conflicts();
    const store = app.get(AnnouncementStore);
    const stock = { id: bravo.id, combinedTicker: bravo.combinedTicker };
    const reused = {
      sourceKey: first.id,
      ticker: 'BRAVO',
      headline: 'Change of Director’s Interest Notice',
      releasedAt: second.releasedAt,
      priceSensitive: false,
      documentUrl: second.documentUrl,
    };
    expect(await store.storeDetected(stock, [reused], 'poll')).toEqual([]);
    expect(await store.storeDetected(stock, [reused], 'poll')).toEqual([]);
    const stored = (await rows(bravo.id)).find((r) => r.source_key === first.id)!;
    expect(
      await store.storeDetected(
        stock,
        [{ ...reused, headline: stored.headline, releasedAt: stored.released_at.toISOString() }],
        'poll',
      ),
    ).toEqual([]);
    expect(await conflicts()).toBe(before + 1);
    expect((await rows(bravo.id)).find((r) => r.source_key === first.id)?.headline).toBe('Appendix 3B');
    expect(await rows(bravo.id)).toHaveLength(2);
  });

  describe('at scale', () => {
    afterAll(async () => {
      // The 2,000 requests are nobody's work: the next test file's pollers must not start on them.
      await skipBacklog(consumerGroupOf('announcements', 'poller'), Topics.AnnouncementsPollRequested);
    });

    // How fast a tick is belongs to bench/announcements-detection.bench.mjs (timed on a quiet machine): here,
    // that one tick publishes every stock's poll work, once each.
    it('publishes the poll work of 2,000 stocks in one tick, one message per stock', async () => {
      await app.close();
      app = undefined as unknown as INestApplication;
      const scheduler = await announcementsService.context({ ...env, ROLES: 'scheduler' });
      try {
        const pg = scheduler.get(DataSource);
        await pg.query(`DELETE FROM announcements.stocks`);
        await pg.query(
          `INSERT INTO announcements.stocks (id, ticker, exchange, combined_ticker, announcement_start_year, poll_asx,
             updated_at)
           SELECT gen_random_uuid(), 'S' || lpad(n::text, 5, '0'), 'ASX', 'S' || lpad(n::text, 5, '0') || ':ASX', 2020,
             true, now()
           FROM generate_series(1, 2000) AS n`,
        );
        await pg.query(completedInitialPollsSql());
        const tick = scheduler.get(PollScheduler);
        const pollWorkSince = (from: number) =>
          probe.received.slice(from).filter((m) => m.topic === Topics.AnnouncementsPollRequested);
        // Warm: connections, metadata of the topic. Its 2,000 messages (the same keys) are all read before
        // the timed tick, so none of them is counted as the timed tick's.
        const beforeWarm = probe.received.length;
        await tick.tick();
        // No time budget (2,000 messages through a broker beside two other lanes took over 15 s once).
        await waitUntil(
          "the warm tick's 2,000 received",
          () => pollWorkSince(beforeWarm).length >= 2000,
          120_000,
        );
        const start = probe.received.length;
        const timed = await tick.tick();
        expect(timed.published).toBe(2000);
        await waitUntil('all 2,000 received', () => pollWorkSince(start).length >= 2000, 120_000);
        const keys = new Set(pollWorkSince(start).map((m) => m.key));
        expect(keys.size).toBe(2000);
      } finally {
        await scheduler.close();
      }
    }, 300_000);
  });
});
