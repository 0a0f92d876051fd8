import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { SendHistoryReply, Stock, Topics } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  handledMessages,
  sealedProviderKey,
  serviceTestEnv,
  settledDeliveries,
  SmtpSink,
  startSmtpSink,
  untilHandled,
  waitUntil,
} from '@irp/platform/testing';
import { ProvidersStandIn, startProvidersStandIn } from '@irp/standins/email-providers';
import { DataSource } from 'typeorm';
import { SendHistory1796400000000 } from '../src/database/migrations/1796400000000-SendHistory';
import { startEmailMarketingService } from '../src/main';
import {
  addConfirmedSubscribers,
  announcement,
  EventSender,
  stockEvent,
  ticker,
  waitForStock,
} from './email-fixtures';

jest.setTimeout(300_000);

type DeliveryState = SendHistoryReply['announcements'][number];

/**
 * Who was mailed an announcement (`email-marketing.send-history`, docs/adr/0013), on the real broker, database,
 * an SMTP server and the providers' stand-in: this service's sends and deliveries are the one record of it, so
 * what a send to subscribers or a campaign did is what the reply says, each accepted address once per send.
 */
describe('email-marketing send history', () => {
  let app: INestApplication;
  let db: DataSource;
  let sink: SmtpSink;
  let providers: ProvidersStandIn;
  let requester: KafkaRequester;
  let events: EventSender;
  let metricsUrl: string;
  let stock: Stock;
  let other: Stock;
  const subscribers = ['a@history.example', 'b@history.example', 'c@history.example'];

  const history = async (stockId: string, sendGuids?: string[]) =>
    (
      await requester.request(Topics.EmailMarketingSendHistory, {
        stockId,
        ...(sendGuids ? { sendGuids } : {}),
      })
    ).announcements;

  /** The announcement's delivery state once `done` holds of it (deliveries are reported after each chunk). */
  async function stateWhen(
    stockId: string,
    sendGuid: string,
    what: string,
    done: (state: DeliveryState) => boolean,
  ): Promise<DeliveryState> {
    let state: DeliveryState | undefined;
    await waitUntil(
      what,
      async () => {
        [state] = await history(stockId, [sendGuid]);
        return !!state && done(state);
      },
      30_000,
      200,
    );
    return state!;
  }

  beforeAll(async () => {
    await dropSchema('email_marketing');
    sink = await startSmtpSink();
    providers = await startProvidersStandIn({ smtp: { host: '127.0.0.1', port: sink.port } });
    app = await startEmailMarketingService({
      MAILCHIMP_BASE_URL: `${providers.url}/3.0`,
      CAMPAIGN_MONITOR_BASE_URL: `${providers.url}/api/v3.3`,
      PROVIDER_TIMEOUT_MS: '3000',
      ...serviceTestEnv('email-marketing'),
      SMTP_URL: sink.url,
      PUBLIC_BASE_URL: 'http://portal.example',
      DELIVERY_RETRY_BASE_MS: '200',
      DELIVERY_MAX_ATTEMPTS: '3',
      SWEEP_INTERVAL_MS: '300',
    });
    db = app.get(DataSource);
    metricsUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    requester = await createTestRequester(
      [Topics.EmailMarketingSendHistory, Topics.EmailMarketingSaveSettings],
      10_000,
    );
    events = await EventSender.connect();
    stock = stockEvent({ ticker: ticker('HIS'), companyName: 'History Holdings' });
    other = stockEvent({ ticker: ticker('OTH'), companyName: 'Other Holdings' });
    for (const s of [stock, other]) {
      await events.stock(s);
      await waitForStock(db, s.id);
    }
    await addConfirmedSubscribers(db, stock.id, subscribers);
    await addConfirmedSubscribers(db, other.id, ['z@other.example']);
  });

  afterAll(async () => {
    await events?.close();
    await requester?.close();
    await app?.close();
    await providers?.close();
    await sink?.close();
  });

  it('lists each accepted address once, sent, with the alert latency; a redelivered request adds nothing', async () => {
    const a = announcement(stock.id, { date: new Date(Date.now() - 5000).toISOString() });
    const event = await events.sendRequested(stock.id, a);
    const state = await stateWhen(
      stock.id,
      a.sendGuid,
      'three deliveries in the history',
      (s) => s.sendHistory.length >= 3,
    );
    expect(state.sent).toBe(true);
    expect(state.sendHistory.map((e) => e.emailAddress).sort()).toEqual(subscribers);
    // Oldest first, each at the time the server accepted it.
    const times = state.sendHistory.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    const accepted: Array<{ email: string; accepted_at: Date }> = await db.query(
      `SELECT d.email, d.accepted_at FROM email_marketing.deliveries d
       JOIN email_marketing.sends s ON s.id = d.send_id WHERE s.send_guid = $1`,
      [a.sendGuid],
    );
    for (const entry of state.sendHistory)
      expect(entry.timestamp).toBe(
        accepted.find((r) => r.email === entry.emailAddress)!.accepted_at.toISOString(),
      );
    expect(state.alertLatencyMs).toBeGreaterThanOrEqual(5000);
    expect(state.alertLatencyMs).toBeLessThan(60_000);

    // Kafka redelivers the request: once it is handled, the history is what it was (each address once).
    const before = await handledMessages(metricsUrl, Topics.AnnouncementSendRequested);
    await events.send(Topics.AnnouncementSendRequested, stock.id, event);
    await untilHandled(metricsUrl, Topics.AnnouncementSendRequested, before + 1);
    expect(await settledDeliveries(db, { sendGuid: a.sendGuid })).toHaveLength(3);
    expect(await history(stock.id, [a.sendGuid])).toEqual([state]);
  });

  it("a resend adds the second send's deliveries and keeps the first send's alert latency", async () => {
    const a = announcement(stock.id, { date: new Date(Date.now() - 5000).toISOString() });
    await events.sendRequested(stock.id, a);
    const first = await stateWhen(
      stock.id,
      a.sendGuid,
      'the first send reported',
      (s) => s.sendHistory.length >= 3,
    );
    await events.sendRequested(stock.id, a, { override: true });
    const both = await stateWhen(
      stock.id,
      a.sendGuid,
      'the resend reported',
      (s) => s.sendHistory.length >= 6,
    );
    expect(both.sendHistory).toHaveLength(6);
    expect(both.sendHistory.slice(0, 3)).toEqual(first.sendHistory);
    expect(
      both.sendHistory
        .slice(3)
        .map((e) => e.emailAddress)
        .sort(),
    ).toEqual(subscribers);
    // The resend was accepted later, so its latency is longer: the announcement's stays the first's.
    const latencies: Array<{ alert_latency_ms: number }> = await db.query(
      `SELECT alert_latency_ms FROM email_marketing.sends WHERE send_guid = $1 ORDER BY first_accepted_at`,
      [a.sendGuid],
    );
    expect(latencies).toHaveLength(2);
    expect(latencies[1].alert_latency_ms).toBeGreaterThan(latencies[0].alert_latency_ms);
    expect(both.alertLatencyMs).toBe(latencies[0].alert_latency_ms);
    expect(both.alertLatencyMs).toBe(first.alertLatencyMs);
  });

  it("a campaign is one entry, the provider's list; it has no alert latency", async () => {
    await requester.request(Topics.EmailMarketingSaveSettings, {
      actor: actor({ username: 'admin', roles: ['Admin'] }),
      stockId: stock.id,
      settings: {
        provider: 'mailchimp',
        listId: 'demo-list',
        apiKey: sealedProviderKey('demo-mailchimp-key-us1'),
        templateId: '',
        replyTo: 'ir@history.example',
        fromName: 'History IR',
        savedSegmentId: '',
        clientId: '',
        testEmailAddresses: '',
      },
    });
    const b = announcement(stock.id, { headline: 'Campaign of the history' });
    await events.sendRequested(stock.id, b, { channels: ['email-marketing'] });
    let status: string | undefined;
    await waitUntil(
      'the campaign send over',
      async () => {
        // A campaign is over by the provider's answer alone (the sweep never closes one: it has no deliveries).
        [{ status } = { status: undefined }] = await db.query(
          `SELECT status FROM email_marketing.sends WHERE send_guid = $1`,
          [b.sendGuid],
        );
        return status === 'done' || status === 'failed';
      },
      30_000,
      200,
    );
    expect(status).toBe('done');
    const [state] = await history(stock.id, [b.sendGuid]);
    // The stand-in mails its list itself: over before the next test counts on the SMTP server's answers.
    await sink.waitFor(
      (m) => m.filter((x) => x.subject.includes(b.headline)).length === 3,
      'the campaign mailed by the provider',
    );
    const [send] = await db.query(
      `SELECT first_accepted_at, audience FROM email_marketing.sends WHERE send_guid = $1`,
      [b.sendGuid],
    );
    expect(send.audience).toBe('Mailchimp-type list demo-list');
    expect(state).toEqual({
      sendGuid: b.sendGuid,
      sent: true,
      sendHistory: [
        { timestamp: send.first_accepted_at.toISOString(), emailAddress: 'Mailchimp-type list demo-list' },
      ],
      alertLatencyMs: null,
    });
  });

  it('leaves out what was never mailed, narrows to the sendGuids asked for, and never answers another stock', async () => {
    // A send the server refused outright: no delivery accepted, so the announcement was never mailed.
    sink.refuseNext(3, 550, 'Mailbox unavailable');
    const refused = announcement(stock.id, { headline: 'Refused' });
    await events.sendRequested(stock.id, refused);
    await waitUntil(
      'the refused send failed',
      async () =>
        (await settledDeliveries(db, { sendGuid: refused.sendGuid })).every((d) => d.status === 'failed'),
      30_000,
      200,
    );
    const mailed = announcement(stock.id, { headline: 'Mailed' });
    await events.sendRequested(stock.id, mailed);
    await stateWhen(stock.id, mailed.sendGuid, 'mailed', (s) => s.sendHistory.length >= 3);
    const elsewhere = announcement(other.id);
    await events.sendRequested(other.id, elsewhere);
    await stateWhen(other.id, elsewhere.sendGuid, 'the other stock mailed', (s) => s.sent);

    const all = await history(stock.id);
    const guids = all.map((s) => s.sendGuid);
    expect(guids).toContain(mailed.sendGuid);
    expect(guids).not.toContain(refused.sendGuid);
    expect(guids).not.toContain(elsewhere.sendGuid);
    expect(all.every((s) => s.sent && s.sendHistory.length > 0)).toBe(true);
    expect((await history(stock.id, [mailed.sendGuid, refused.sendGuid])).map((s) => s.sendGuid)).toEqual([
      mailed.sendGuid,
    ]);
    expect(await history(stock.id, [elsewhere.sendGuid, randomUUID()])).toEqual([]);
    expect(await history(stock.id, [])).toEqual([]);
    expect(await history(other.id)).toEqual([
      expect.objectContaining({
        sendGuid: elsewhere.sendGuid,
        sendHistory: [expect.objectContaining({ emailAddress: 'z@other.example' })],
      }),
    ]);
  });

  it('the migration names the list of each campaign sent before it, from the stock settings', async () => {
    const [campaign] = await db.query(
      `SELECT id FROM email_marketing.sends WHERE stock_id = $1 AND channel = 'email-marketing' AND status = 'done'`,
      [stock.id],
    );
    const runner = db.createQueryRunner();
    try {
      await new SendHistory1796400000000().down(runner);
      await new SendHistory1796400000000().up(runner);
    } finally {
      await runner.release();
    }
    const [send] = await db.query(`SELECT audience FROM email_marketing.sends WHERE id = $1`, [campaign.id]);
    expect(send.audience).toBe('Mailchimp-type list demo-list');
    const unmailed: Array<{ audience: string | null }> = await db.query(
      `SELECT audience FROM email_marketing.sends WHERE channel = 'email'`,
    );
    expect(unmailed.every((s) => s.audience === null)).toBe(true);
  });
});
