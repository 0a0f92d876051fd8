import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { EventOf, marketDataFailedMail, newOrderMail, ServiceOrder, Topics } from '@irp/proto';
import {
  captureLogs,
  dropSchema,
  handledMessages,
  serviceTestEnv,
  settledDeliveries,
  SmtpSink,
  startSmtpSink,
  untilHandled,
} from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { startEmailMarketingService } from '../src/main';
import { EventSender } from './email-fixtures';

jest.setTimeout(300_000);

/** A whole service order as the stocks service publishes it. */
function serviceOrder(fields: Partial<ServiceOrder> = {}): ServiceOrder {
  return {
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    companyName: 'Order <Minerals> Ltd',
    ticker: 'ORD',
    reference: '',
    option: null,
    authorisedBy: 'Jane Director',
    website: 'https://order.example',
    address: '1 Order St, Perth WA 6000',
    contactName: 'Jane Director',
    contactPhone: '0400 000 000',
    contactEmail: 'jane@order.example',
    abn: '12 345 678 901',
    listingDate: '2026-01-01',
    confirmationEmail: 'ir@order.example',
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: false,
    autoSendAnnouncementEmail: false,
    autoSendNonPriceSensitiveAnnouncements: false,
    emailMarketing: null,
    isCreated: false,
    combinedTicker: null,
    ...fields,
  };
}

/**
 * The staff mails this service sends itself (docs/adr/0013), on the real broker, database and an SMTP server:
 * the system settings' error email projected from `system-settings.saved` (the newest saved settings kept,
 * whatever order their events arrive in), and a new service order or failed market data mailed there once per
 * key, as the announcements service's `error.reported` relay did.
 */
describe('email-marketing staff mail', () => {
  let app: INestApplication;
  let db: DataSource;
  let sink: SmtpSink;
  let events: EventSender;
  let metricsUrl: string;
  const hour = 3_600_000;
  const base = Date.now() - 10 * hour;
  const savedAt = (hours: number) => new Date(base + hours * hour).toISOString();

  /** Sends the events to `topic`, then waits until the service has handled each. */
  async function handled(topic: string, ...sent: Array<{ key: string; value: unknown }>) {
    const before = await handledMessages(metricsUrl, topic);
    for (const e of sent) await events.send(topic, e.key, e.value);
    await untilHandled(metricsUrl, topic, before + sent.length);
  }
  const settingsSaved = (errorEmail: string, at: string) => ({
    key: 'system-settings',
    value: { errorEmail, savedAt: at } satisfies EventOf<typeof Topics.SystemSettingsSaved>,
  });
  const orderSubmitted = (order: ServiceOrder) => ({
    key: order.id,
    value: { order } satisfies EventOf<typeof Topics.ServiceOrderSubmitted>,
  });
  /** The error email the projection holds now. */
  const projected = async () =>
    (await db.query(`SELECT error_email FROM email_marketing.staff_mail_settings`))[0]?.error_email;

  beforeAll(async () => {
    await dropSchema('email_marketing');
    sink = await startSmtpSink();
    app = await startEmailMarketingService({
      ...serviceTestEnv('email-marketing'),
      SMTP_URL: sink.url,
      PUBLIC_BASE_URL: 'http://portal.example',
      DELIVERY_RETRY_BASE_MS: '200',
      SWEEP_INTERVAL_MS: '300',
    });
    db = app.get(DataSource);
    metricsUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    events = await EventSender.connect();
  });

  afterAll(async () => {
    await events?.close();
    await app?.close();
    await sink?.close();
  });

  beforeEach(() => sink.clear());

  it('with no error email projected, a new order is logged and nothing is mailed', async () => {
    const order = serviceOrder();
    const logs = captureLogs();
    try {
      await handled(Topics.ServiceOrderSubmitted, orderSubmitted(order));
    } finally {
      logs.stop();
    }
    expect(logs.text()).toContain('no error email in the system settings; error not reported by email');
    expect(logs.text()).toContain(`service-order:${order.id}`);
    expect(
      await db.query(`SELECT 1 FROM email_marketing.sends WHERE request_key = $1`, [
        `error:service-order:${order.id}`,
      ]),
    ).toEqual([]);
    expect(sink.mails).toEqual([]);
  });

  it('mails a new service order to the projected error email, once however often it is delivered', async () => {
    await handled(
      Topics.SystemSettingsSaved,
      settingsSaved('ops@portal.example; dev@portal.example', savedAt(1)),
    );
    const order = serviceOrder();
    await handled(Topics.ServiceOrderSubmitted, orderSubmitted(order), orderSubmitted(order));
    // Both handled: one send, over, with one delivery per address of the error email.
    expect(await settledDeliveries(db, { requestKey: `error:service-order:${order.id}` })).toEqual([
      { email: 'dev@portal.example', status: 'sent' },
      { email: 'ops@portal.example', status: 'sent' },
    ]);
    expect(sink.mails.map((m) => m.to[0]).sort()).toEqual(['dev@portal.example', 'ops@portal.example']);
    const { subject, message } = newOrderMail(order);
    const [mail] = sink.to('ops@portal.example');
    expect(mail.subject).toBe(`IR Portal: ${subject}`);
    expect(mail.text.trim()).toBe(message);
    expect(mail.html).toContain('Order &lt;Minerals&gt; Ltd');
  });

  it('mails failed market data to the projected error email, once per report key', async () => {
    const failed: EventOf<typeof Topics.MarketDataFailed> = {
      key: `prior-day:2026-11-27:${randomUUID()}`,
      job: 'prior-day',
      day: '2026-11-27',
      tickers: ['BHP', 'RIO'],
      message: 'The provider answered 503',
      at: new Date().toISOString(),
    };
    await handled(
      Topics.MarketDataFailed,
      { key: failed.key, value: failed },
      { key: failed.key, value: failed },
    );
    expect(await settledDeliveries(db, { requestKey: `error:market-data:${failed.key}` })).toEqual([
      { email: 'dev@portal.example', status: 'sent' },
      { email: 'ops@portal.example', status: 'sent' },
    ]);
    expect(sink.mails).toHaveLength(2);
    const { subject, message } = marketDataFailedMail(failed);
    expect(sink.mails[0].subject).toBe(`IR Portal: ${subject}`);
    expect(sink.mails[0].text.trim()).toBe(message);
  });

  it('keeps the newest saved settings whatever order their events arrive in; a blank error email mails nothing', async () => {
    // Saved at hour 3, then the settings of hour 2 arrive late: hour 3's stay.
    await handled(
      Topics.SystemSettingsSaved,
      settingsSaved('newer@portal.example', savedAt(3)),
      settingsSaved('older@portal.example', savedAt(2)),
    );
    expect(await projected()).toBe('newer@portal.example');
    const order = serviceOrder();
    await handled(Topics.ServiceOrderSubmitted, orderSubmitted(order));
    expect(await settledDeliveries(db, { requestKey: `error:service-order:${order.id}` })).toEqual([
      { email: 'newer@portal.example', status: 'sent' },
    ]);
    expect(sink.to('older@portal.example')).toEqual([]);

    // The error email cleared (saved later): nothing is mailed, as with none.
    await handled(Topics.SystemSettingsSaved, settingsSaved('  ', savedAt(4)));
    const unmailed = serviceOrder();
    await handled(Topics.ServiceOrderSubmitted, orderSubmitted(unmailed));
    expect(
      await db.query(`SELECT 1 FROM email_marketing.sends WHERE request_key = $1`, [
        `error:service-order:${unmailed.id}`,
      ]),
    ).toEqual([]);
    expect(sink.to('newer@portal.example')).toHaveLength(1);
  });
});
