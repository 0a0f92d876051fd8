import {
  INVALID_TICKER_MESSAGE,
  RequestOf,
  sendFlagsOf,
  serviceOrderAlreadyCreatedMessage,
  serviceOrderNotFoundMessage,
  Topics,
  unknownOptionGroupMessage,
} from '@irp/proto';
import { UNKNOWN_OPTION_MESSAGE } from '../src/orders/submit-service-order';
import {
  ADMIN,
  REPORTS,
  db,
  eventOf,
  expectAppError,
  get,
  history,
  requester,
  save,
  useStocksService,
} from './stocks-service.harness';

type Form = RequestOf<typeof Topics.StocksSubmitServiceOrder>['form'];

const form = (over: Partial<Form> = {}): Form => ({
  companyName: 'Kestrel Copper Limited',
  ticker: 'kcu',
  website: 'https://kestrel.example.com.au',
  listingDate: '',
  contactName: 'Priya Raman',
  contactPhone: '08 9322 4410',
  contactEmail: 'priya@kestrel.example.com.au',
  abn: '51 824 753 556',
  address: '190 St Georges Terrace, Perth WA 6000',
  authorisedBy: 'Priya Raman',
  option: null,
  confirmationEmail: 'ir@kestrel.example.com.au',
  ...sendFlagsOf('all'),
  emailMarketing: null,
  ...over,
});

const submit = (f: Form) => requester.request(Topics.StocksSubmitServiceOrder, { form: f });
const list = () =>
  requester.request(Topics.StocksServiceOrders, { actor: ADMIN }).then((r) => r.serviceOrders);
const createStock = (serviceOrderId: string, ticker: string, reference = '') =>
  requester.request(Topics.StocksCreateFromServiceOrder, { actor: ADMIN, serviceOrderId, ticker, reference });
const counts = async () =>
  (
    await db.query(
      `SELECT (SELECT count(*)::int FROM stocks.stocks) AS stocks,
              (SELECT count(*)::int FROM stocks.service_orders WHERE stock_id IS NOT NULL) AS created,
              (SELECT count(*)::int FROM stocks.outbox) AS outbox`,
    )
  )[0] as { stocks: number; created: number; outbox: number };

/**
 * Service orders through the stocks service's request topics on the real broker and database: the option
 * groups, the order form's submit (presence rules, the staff event), the staff list, and creating a stock
 * from an order with each refusal changing nothing. Setup: stocks-service.harness.ts.
 */
describe('stocks service: service orders', () => {
  useStocksService();

  it('lists the default option group, seeded by the migration: 1800 + GST preselected', async () => {
    const { options } = await requester.request(Topics.StocksServiceOptions, { groupId: 'default' });
    expect(options.length).toBeGreaterThanOrEqual(1);
    expect(options[0]).toMatchObject({ groupId: 'default', price: 1800, isDefault: true });
    expect(options.filter((o) => o.isDefault)).toHaveLength(1);
    expect(options[0].lineItems.length).toBeGreaterThan(0);
    // No group named: the default's (the form's /new-order).
    expect((await requester.request(Topics.StocksServiceOptions, { groupId: ' ' })).options).toEqual(options);
    // An unknown group is said to be unknown, never answered with another group's prices.
    await expectAppError(
      requester.request(Topics.StocksServiceOptions, { groupId: 'no-such-group' }),
      'NOT_FOUND',
      unknownOptionGroupMessage('no-such-group'),
    );
  });

  it('refuses a form with missing fields, naming each, and stores nothing', async () => {
    const before = await counts();
    await expectAppError(
      submit(form({ companyName: '', abn: '  ', authorisedBy: '' })),
      'BAD_REQUEST',
      'Company Name Required; ABN Required; Authorised By Required',
    );
    await expectAppError(
      submit(form({ option: '00000000-0000-4000-8000-000000000000' })),
      'BAD_REQUEST',
      UNKNOWN_OPTION_MESSAGE,
    );
    expect(await counts()).toEqual(before);
    expect(await list()).toEqual([]);
  });

  let orderId = '';
  it('stores an order with its option as ordered and publishes service-order.submitted', async () => {
    const { options } = await requester.request(Topics.StocksServiceOptions, { groupId: 'default' });
    ({ id: orderId } = await submit(form({ option: options[0].id })));
    const [order] = await list();
    expect(order).toMatchObject({
      id: orderId,
      companyName: 'Kestrel Copper Limited',
      ticker: 'KCU',
      reference: '',
      option: { name: options[0].name, price: 1800, lineItems: options[0].lineItems },
      isCreated: false,
      combinedTicker: null,
      autoSendNonPriceSensitiveAnnouncements: true,
    });
    const event = await eventOf(Topics.ServiceOrderSubmitted, orderId);
    expect((event.value as { order: { id: string } }).order.id).toBe(orderId);
  });

  it('lists orders for admins only', async () => {
    await expectAppError(
      requester.request(Topics.StocksServiceOrders, { actor: REPORTS }),
      'FORBIDDEN',
      /Admin/,
    );
    await expectAppError(
      requester.request(Topics.StocksCreateFromServiceOrder, {
        actor: REPORTS,
        serviceOrderId: orderId,
        ticker: 'KCU',
        reference: '',
      }),
      'FORBIDDEN',
      /Admin/,
    );
  });

  it('refuses an invalid ticker, a taken ticker and an unknown order, changing nothing', async () => {
    await save(ADMIN, { ticker: 'TAKEN', companyName: 'Already here' });
    const before = await counts();
    await expectAppError(createStock(orderId, 'k!', 'REF'), 'BAD_REQUEST', INVALID_TICKER_MESSAGE);
    await expectAppError(createStock(orderId, 'taken', 'REF'), 'CONFLICT', /TAKEN/);
    const unknown = '00000000-0000-4000-8000-000000000001';
    await expectAppError(
      createStock(unknown, 'KCU', 'REF'),
      'NOT_FOUND',
      serviceOrderNotFoundMessage(unknown),
    );
    expect(await counts()).toEqual(before);
    expect((await list())[0]).toMatchObject({ isCreated: false, reference: '' });
  });

  it("creates the stock with the order's settings and marks the order created, once", async () => {
    const created = await createStock(orderId, ' kcu1 ', 'KCU-2026');
    expect(created.combinedTicker).toBe('KCU1:ASX');
    const stock = await get('KCU1:ASX');
    expect(stock).toMatchObject({
      id: created.stockId,
      companyName: 'Kestrel Copper Limited',
      websiteUrl: 'https://kestrel.example.com.au',
      contactEmail: 'priya@kestrel.example.com.au',
      confirmationEmail: 'ir@kestrel.example.com.au',
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: true,
      accountingReference: 'KCU-2026',
      version: 1,
    });
    expect((await history('KCU1:ASX'))[0]).toMatchObject({ versionId: 1, changedBy: 'alice' });
    await eventOf(Topics.StockUpserted, created.stockId);
    expect((await list())[0]).toMatchObject({
      isCreated: true,
      ticker: 'KCU1',
      reference: 'KCU-2026',
      combinedTicker: 'KCU1:ASX',
    });
    const before = await counts();
    await expectAppError(
      createStock(orderId, 'KCU2', 'X'),
      'CONFLICT',
      serviceOrderAlreadyCreatedMessage('KCU1:ASX'),
    );
    expect(await counts()).toEqual(before);
  });

  it('answers the order a stock was made from, or null', async () => {
    const { serviceOrder } = await requester.request(Topics.StocksServiceOrderOfStock, {
      combinedTicker: 'KCU1:ASX',
    });
    expect(serviceOrder).toMatchObject({ id: orderId, combinedTicker: 'KCU1:ASX', option: { price: 1800 } });
    for (const combinedTicker of ['TAKEN:ASX', 'NOPE:ASX'])
      expect(
        (await requester.request(Topics.StocksServiceOrderOfStock, { combinedTicker })).serviceOrder,
      ).toBeNull();
  });

  it('says address suggestions are unavailable when no address service is configured', async () => {
    expect(await requester.request(Topics.StocksAddressSuggestions, { q: '190 St Georges' })).toEqual({
      available: false,
      suggestions: [],
    });
  });
});
