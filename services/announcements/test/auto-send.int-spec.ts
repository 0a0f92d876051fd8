import { INestApplication } from '@nestjs/common';
import { consumerGroupOf } from '@irp/platform';
import { STANDARD_AUTO_SEND_FILTER, Topics, type Stock, type SystemSettings } from '@irp/proto';
import {
  dropSchema,
  handledMessages,
  rawProducer,
  ReceivedMessage,
  serviceTestEnv,
  TopicProbe,
  untilHandled,
  untilOutboxPublished,
  waitUntil,
} from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { startAnnouncementsService } from '../src/main';
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
  stockEvent,
  waitForGroups,
} from './polling-harness';
import { SEND_REQUEST_TOPICS } from './announcements-fixtures';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/**
 * Automatic sending of polled announcements, decided by the poller role from `announcement.detected`:
 * channels from the stock's switches, the auto-send filter, the hourly and daily limits (held back and
 * reported), and one decision per announcement however often the event is delivered.
 */

interface Row {
  id: string;
  headline: string;
  auto_send: string | null;
  auto_send_at: Date | null;
  send_requested_at: Date | null;
}

describe('auto-send on the real broker and database', () => {
  let app: INestApplication;
  let standIn: AsxStandIn;
  let probe: TopicProbe;
  let db: DataSource;
  let env: NodeJS.ProcessEnv;
  const stocks: Stock[] = [];

  const apply = async (stock: Stock) => {
    await app.get(StockProjectionService).apply(stock);
    await db.query(completedInitialPollsSql('s.id = $1'), [stock.id]);
    stocks.push(stock);
    return stock;
  };
  const rows = async (stockId: string): Promise<Row[]> =>
    db.query(
      `SELECT * FROM announcements.announcements WHERE stock_id = $1 ORDER BY released_at, source_key`,
      [stockId],
    );
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
  const value = (m: ReceivedMessage) => m.value as Record<string, unknown>;
  const announcementOf = (m: ReceivedMessage) =>
    value(m).announcement as { id: string; headline: string; sendGuid: string };
  const sendRequests = (stockId: string) =>
    probe.received.filter((m) => SEND_REQUEST_TOPICS.includes(m.topic) && m.key === stockId);
  /** Waits until every announcement of the stock has its decision. */
  const decided = async (stockId: string, count: number) => {
    await waitUntil(
      `${count} decisions`,
      async () => {
        const list = await rows(stockId);
        return list.length === count && list.every((r) => r.auto_send !== null);
      },
      20_000,
    );
    return rows(stockId);
  };
  const metricsUrl = () => `http://127.0.0.1:${app.getHttpServer().address().port}`;
  /**
   * The headlines of the stock's send requests, once every one is published and the probe has it. Called after
   * every decision is taken: a send request is written with its decision, so the outbox holds all there are.
   */
  const sentHeadlines = async (stockId: string) => {
    const events = await untilOutboxPublished('announcements', SEND_REQUEST_TOPICS, stockId);
    await waitUntil('the probe has them', () => sendRequests(stockId).length >= events.length);
    expect(sendRequests(stockId)).toHaveLength(events.length);
    return events.map((e) => (e.payload as { announcement: { headline: string } }).announcement.headline);
  };

  beforeAll(async () => {
    await dropSchema('announcements');
    standIn = await startAsxStandIn({ port: 0 });
    probe = await TopicProbe.listen([
      ...SEND_REQUEST_TOPICS,
      Topics.ErrorReported,
      Topics.AnnouncementDetected,
    ]);
    // The roles under test; the api role's projection bootstrap would wait for a stocks service.
    env = { ...serviceTestEnv('announcements'), ...pollingEnv(standIn, { ROLES: 'scheduler,poller' }) };
    app = await startAnnouncementsService(env);
    db = app.get(DataSource);
    await settings({});
    await waitForGroups([consumerGroupOf('announcements', 'poller')], env.INSTANCE_ID!);
  });

  afterEach(async () => {
    // Each case's stocks stop being polled, so the next case's limits and probes see only their own.
    for (const stock of stocks.splice(0))
      await app.get(StockProjectionService).apply(changed(stock, { pollAsx: false }));
  });

  afterAll(async () => {
    await app?.close();
    await probe?.close();
    await standIn?.close();
    removeDataDir(env);
  });

  it('sends to the channels the four switches choose, for price-sensitive and other announcements', async () => {
    const cases = [
      { ticker: 'SPS', switch: 'sendPriceSensitiveAnnouncements', sensitive: ['email'], other: null },
      { ticker: 'SNPS', switch: 'sendNonPriceSensitiveAnnouncements', sensitive: null, other: ['email'] },
      { ticker: 'EMPS', switch: 'autoSendAnnouncementEmail', sensitive: ['email-marketing'], other: null },
      {
        ticker: 'EMNPS',
        switch: 'autoSendNonPriceSensitiveAnnouncements',
        sensitive: null,
        other: ['email-marketing'],
      },
      { ticker: 'NONE', switch: null, sensitive: null, other: null },
    ] as const;
    const made = [];
    for (const c of cases) {
      const stock = await apply(stockEvent({ ticker: c.ticker, ...(c.switch ? { [c.switch]: true } : {}) }));
      standIn.publish({
        ticker: c.ticker,
        headline: 'Full Year Results',
        priceSensitive: true,
        releasedAt: new Date(Date.now() - 60_000).toISOString(),
      });
      standIn.publish({
        ticker: c.ticker,
        headline: 'Notice of Annual General Meeting',
        priceSensitive: false,
      });
      made.push({ ...c, stock });
    }
    for (const c of made) {
      const [sensitive, other] = await decided(c.stock.id, 2);
      expect([sensitive.headline, other.headline]).toEqual([
        'Full Year Results',
        'Notice of Annual General Meeting',
      ]);
      expect(sensitive.auto_send).toBe(c.sensitive ? 'requested' : 'no-channel');
      expect(other.auto_send).toBe(c.other ? 'requested' : 'no-channel');
      const requested = [c.sensitive && sensitive, c.other && other].filter(Boolean) as Row[];
      for (const row of requested) {
        expect(row.auto_send_at).not.toBeNull();
        expect(row.send_requested_at).not.toBeNull();
      }
      expect((await sentHeadlines(c.stock.id)).sort()).toEqual(requested.map((r) => r.headline).sort());
      for (const m of sendRequests(c.stock.id)) {
        const sensitiveOne = announcementOf(m).headline === 'Full Year Results';
        const channels = sensitiveOne ? c.sensitive : c.other;
        // A price-sensitive announcement's request on its own topic, the sender's priority consumer's.
        expect(m.topic).toBe(
          sensitiveOne ? Topics.AnnouncementPrioritySendRequested : Topics.AnnouncementSendRequested,
        );
        expect(value(m)).toMatchObject({
          stockId: c.stock.id,
          combinedTicker: `${c.ticker}:ASX`,
          channels,
          auto: true,
          override: false,
          requestedBy: 'auto-send',
          announcement: { autoSend: 'requested', origin: 'poll' },
        });
      }
    }
  });

  it('holds back a headline matching the filter (Appendix 3B) and sends a normal one', async () => {
    const stock = await apply(
      stockEvent({
        ticker: 'FILT',
        sendPriceSensitiveAnnouncements: true,
        sendNonPriceSensitiveAnnouncements: true,
        autoSendFilter: STANDARD_AUTO_SEND_FILTER,
      }),
    );
    standIn.publish({
      ticker: 'FILT',
      headline: 'Appendix 3B - Proposed issue of securities',
      releasedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    standIn.publish({ ticker: 'FILT', headline: 'Quarterly Activities Report', priceSensitive: true });
    const [form, report] = await decided(stock.id, 2);
    expect(form).toMatchObject({
      headline: 'Appendix 3B - Proposed issue of securities',
      auto_send: 'filtered',
      send_requested_at: null,
    });
    expect(report).toMatchObject({ headline: 'Quarterly Activities Report', auto_send: 'requested' });
    expect(await sentHeadlines(stock.id)).toEqual(['Quarterly Activities Report']);
  });

  it('matches a catastrophic filter on long headlines without stalling the polling of other stocks', async () => {
    // `^(\w+\s?)*$` backtracks exponentially in a RegExp on words not ending the headline: one poll would
    // hold this process (every stock's poller) for good. RE2 answers in time linear in the headline.
    const redos = await apply(
      stockEvent({ ticker: 'REDOS', sendPriceSensitiveAnnouncements: true, autoSendFilter: '^(\\w+\\s?)*$' }),
    );
    const other = await apply(stockEvent({ ticker: 'CALM', sendPriceSensitiveAnnouncements: true }));
    // The stand-in takes headlines of up to 300 characters; the one ending in '!' does not match.
    const words = (length: number) => 'Quarterly Activities Report '.repeat(400).slice(0, length - 1);
    standIn.publish({ ticker: 'REDOS', headline: `${words(300)}!`, priceSensitive: true });
    standIn.publish({ ticker: 'CALM', headline: 'Trading Halt', priceSensitive: true });
    const [long] = await decided(redos.id, 1);
    expect(long).toMatchObject({ headline: `${words(300)}!`, auto_send: 'requested' });
    expect((await decided(other.id, 1))[0]).toMatchObject({ auto_send: 'requested' });

    // A feed's 10,000-character headline (stored as a poll would store it), matching to its end: filtered.
    const detected = await probe.waitFor(
      (m) => m.topic === Topics.AnnouncementDetected && m.key === redos.id,
    );
    const huge = `${words(10_000)}x`;
    const [{ id }] = (await db.query(
      `INSERT INTO announcements.announcements (stock_id, source_key, headline, released_at, origin, price_sensitive)
       VALUES ($1, 'huge-1', $2, now(), 'poll', true) RETURNING id`,
      [redos.id, huge],
    )) as Array<{ id: string }>;
    const event = value(detected);
    const producer = await rawProducer();
    try {
      await producer.send({
        topic: Topics.AnnouncementDetected,
        messages: [
          {
            key: redos.id,
            value: JSON.stringify({
              ...event,
              announcement: { ...(event.announcement as object), id, headline: huge },
            }),
          },
        ],
      });
    } finally {
      await producer.disconnect();
    }
    standIn.publish({
      ticker: 'CALM',
      headline: 'Reinstatement to Official Quotation',
      priceSensitive: true,
    });
    const decisions = await decided(redos.id, 2);
    expect(decisions.find((r) => r.id === id)).toMatchObject({
      auto_send: 'filtered',
      send_requested_at: null,
    });
    // The other stock's next announcement is polled and decided as usual.
    expect((await decided(other.id, 2)).map((r) => [r.headline, r.auto_send])).toEqual([
      ['Trading Halt', 'requested'],
      ['Reinstatement to Official Quotation', 'requested'],
    ]);
  });

  it('never mails old news: a poll finding an announcement released two days ago marks it stale', async () => {
    const stock = await apply(stockEvent({ ticker: 'OLDN', sendPriceSensitiveAnnouncements: true }));
    standIn.publish({
      ticker: 'OLDN',
      headline: 'Half Year Results',
      priceSensitive: true,
      releasedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    standIn.publish({ ticker: 'OLDN', headline: 'Trading Halt', priceSensitive: true });
    const [old, fresh] = await decided(stock.id, 2);
    expect(old).toMatchObject({ headline: 'Half Year Results', auto_send: 'stale', send_requested_at: null });
    expect(fresh).toMatchObject({ headline: 'Trading Halt', auto_send: 'requested' });
    expect(await sentHeadlines(stock.id)).toEqual(['Trading Halt']);
  });

  it('holds back over the hourly limit and reports it', async () => {
    await settings({ hourlyAutoSendLimit: 2, dailyAutoSendLimit: 30 });
    const stock = await apply(stockEvent({ ticker: 'HOUR', sendPriceSensitiveAnnouncements: true }));
    const base = Date.now() - 3 * 60_000;
    for (const [i, headline] of [
      'Trading Halt',
      'Reinstatement to Official Quotation',
      'Response to ASX Price Query',
    ].entries())
      standIn.publish({
        ticker: 'HOUR',
        headline,
        priceSensitive: true,
        releasedAt: new Date(base + i * 60_000).toISOString(),
      });
    const decisions = await decided(stock.id, 3);
    expect(decisions.map((r) => r.auto_send)).toEqual(['requested', 'requested', 'held-hourly']);
    const report = await probe.waitFor(
      (m) => m.topic === Topics.ErrorReported && String(value(m).key) === `auto-send-held:${decisions[2].id}`,
    );
    expect(value(report)).toMatchObject({
      to: ERROR_EMAIL,
      message: 'HOUR: automatic send of "Response to ASX Price Query" held back: hourly limit of 2 reached',
    });
    expect(await sentHeadlines(stock.id)).toEqual(['Trading Halt', 'Reinstatement to Official Quotation']);
  });

  it('holds back over the daily limit, counting the sends of the last day, and reports it', async () => {
    await settings({ hourlyAutoSendLimit: 2, dailyAutoSendLimit: 3 });
    const stock = await apply(stockEvent({ ticker: 'DAY', sendPriceSensitiveAnnouncements: true }));
    // Two automatic sends three hours ago: inside the day, outside the hour.
    await db.query(
      `INSERT INTO announcements.announcements (stock_id, source_key, headline, released_at, origin, auto_send, auto_send_at)
       VALUES ($1, 'earlier-1', 'Earlier 1', now() - interval '3 hours', 'poll', 'requested', now() - interval '3 hours'),
              ($1, 'earlier-2', 'Earlier 2', now() - interval '3 hours', 'poll', 'requested', now() - interval '3 hours')`,
      [stock.id],
    );
    const base = Date.now() - 2 * 60_000;
    standIn.publish({
      ticker: 'DAY',
      headline: 'Half Year Results',
      priceSensitive: true,
      releasedAt: new Date(base).toISOString(),
    });
    standIn.publish({
      ticker: 'DAY',
      headline: 'Investor Presentation',
      priceSensitive: true,
      releasedAt: new Date(base + 60_000).toISOString(),
    });
    const decisions = (await decided(stock.id, 4)).filter((r) => !r.headline.startsWith('Earlier'));
    expect(decisions.map((r) => [r.headline, r.auto_send])).toEqual([
      ['Half Year Results', 'requested'],
      ['Investor Presentation', 'held-daily'],
    ]);
    const report = await probe.waitFor(
      (m) => m.topic === Topics.ErrorReported && String(value(m).key) === `auto-send-held:${decisions[1].id}`,
    );
    expect(value(report).message).toBe(
      'DAY: automatic send of "Investor Presentation" held back: daily limit of 3 reached',
    );
    await settings({});
  });

  it('decides once: a redelivered announcement.detected publishes no second send request', async () => {
    const stock = await apply(stockEvent({ ticker: 'REDO', sendPriceSensitiveAnnouncements: true }));
    standIn.publish({ ticker: 'REDO', headline: 'Full Year Results', priceSensitive: true });
    const [row] = await decided(stock.id, 1);
    expect(row.auto_send).toBe('requested');
    await waitUntil('one send request', () => sendRequests(stock.id).length === 1);
    const detected = await probe.waitFor(
      (m) => m.topic === Topics.AnnouncementDetected && m.key === stock.id,
    );

    const handledBefore = await handledMessages(metricsUrl(), Topics.AnnouncementDetected);
    const producer = await rawProducer();
    try {
      for (let i = 0; i < 3; i++)
        await producer.send({
          topic: Topics.AnnouncementDetected,
          messages: [{ key: stock.id, value: JSON.stringify(detected.value) }],
        });
    } finally {
      await producer.disconnect();
    }
    await untilHandled(metricsUrl(), Topics.AnnouncementDetected, handledBefore + 3);
    // Handled, and a send request is written with the decision: the outbox holds every one there is.
    expect(await sentHeadlines(stock.id)).toEqual(['Full Year Results']);
    expect((await rows(stock.id))[0].auto_send_at).toEqual(row.auto_send_at);
  });
});
