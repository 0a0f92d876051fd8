import {
  DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE,
  duplicateOptionGroupNameMessage,
  foreignOptionMessage,
  INVALID_TICKER_MESSAGE,
  NO_DEFAULT_OPTION_GROUP_MESSAGE,
  OPTION_GROUP_ARCHIVED_MESSAGE,
  ARCHIVED_OPTION_GROUP_EDIT_MESSAGE,
  optionGroupNotFoundMessage,
  ORDER_KEY_GIVEN,
  RequestOf,
  sendFlagsOf,
  serviceOrderAlreadyCreatedMessage,
  serviceOrderNotFoundMessage,
  Topics,
  unknownOptionGroupMessage,
} from '@irp/proto';
import { SecretBox, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { sealedProviderKey } from '@irp/platform/testing';
import { StocksConfig, stocksSecretsKey } from '../src/config';
import { sealOrderEmailMarketingKeysMigration } from '../src/database/migrations/1764500000000-SealOrderEmailMarketingKeys';
import {
  PURGE_STALE_SERVICE_ORDERS_JOB,
  PurgeStaleServiceOrders,
} from '../src/orders/purge-stale-service-orders';
import { UNKNOWN_OPTION_MESSAGE } from '../src/orders/submit-service-order';
import {
  ADMIN,
  REPORTS,
  app,
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

type GroupInput = RequestOf<typeof Topics.StocksSaveOptionGroup>['group'];
const STANDARD = {
  name: 'Standard',
  price: 1800,
  lineItems: ['Share price widgets', 'Announcement emails'],
  isDefault: true,
};
const saveGroup = (group: GroupInput, by = ADMIN) =>
  requester.request(Topics.StocksSaveOptionGroup, { actor: by, group }).then((r) => r.group);
const offered = (groupId: string) =>
  requester.request(Topics.StocksServiceOptions, { groupId }).then((r) => r.options);
const groups = () => requester.request(Topics.StocksOptionGroups, { actor: ADMIN }).then((r) => r.groups);
const archiveGroup = (id: string, archived: boolean) =>
  requester.request(Topics.StocksArchiveOptionGroup, { actor: ADMIN, id, archived }).then((r) => r.group);
const setDefault = (id: string) =>
  requester.request(Topics.StocksSetDefaultOptionGroup, { actor: ADMIN, id }).then((r) => r.group);

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

  let standardId = '';
  it('offers no order form before staff make a group; the first group made is the default', async () => {
    // Migrations seed nothing: the demo's group is the seed's (src/seed.ts).
    expect(await groups()).toEqual([]);
    await expectAppError(offered(''), 'NOT_FOUND', NO_DEFAULT_OPTION_GROUP_MESSAGE);
    const group = await saveGroup({ name: ' Standard subscription ', options: [STANDARD] });
    standardId = group.id;
    expect(group).toMatchObject({ name: 'Standard subscription', isDefault: true, archived: false });
    const options = await offered('');
    expect(options).toEqual([
      expect.objectContaining({
        groupId: group.id,
        price: 1800,
        isDefault: true,
        lineItems: STANDARD.lineItems,
      }),
    ]);
    // No group named (blank too): the default's; an unknown group is said to be unknown.
    expect(await offered(' ')).toEqual(options);
    expect(await offered(group.id)).toEqual(options);
    await expectAppError(offered('no-such-group'), 'NOT_FOUND', unknownOptionGroupMessage('no-such-group'));
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
    const options = await offered('');
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
    // Whoever acts on the new stock hears of it; this order gave no email-marketing settings.
    const made = await eventOf(Topics.ServiceOrderStockCreated, orderId);
    expect(made.value).toEqual({
      serviceOrderId: orderId,
      stockId: created.stockId,
      combinedTicker: 'KCU1:ASX',
      emailMarketing: false,
      by: 'alice',
    });
    expect(
      await requester.request(Topics.StocksServiceOrderEmailMarketing, { serviceOrderId: orderId }),
    ).toEqual({ emailMarketing: null });
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

  it("keeps the order's email-marketing API key as the gateway sealed it, encrypted at rest; no read or event carries it", async () => {
    // The key as the gateway sends it: sealed for the email-marketing service (issue 34); this service
    // cannot read it, and passes it on only to the email-marketing service.
    const emailMarketing = {
      service: 'mailchimp' as const,
      listId: 'kestrel-list',
      apiKey: sealedProviderKey('kestrel-mailchimp-key-us7'),
      templateId: '2001',
      replyTo: 'ir@kestrel.example.com.au',
      fromName: 'Kestrel IR',
      clientId: '',
    };
    const { id } = await submit(form({ ticker: 'kcx', emailMarketing }));
    const [row] = (await db.query(
      `SELECT email_marketing->>'apiKey' AS key, email_marketing::text AS stored FROM stocks.service_orders WHERE id = $1`,
      [id],
    )) as Array<{ key: string; stored: string }>;
    expect(row.key).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(row.stored).not.toContain(emailMarketing.apiKey);
    // Staff read that a key was given, not the key.
    expect((await list()).find((o) => o.id === id)?.emailMarketing).toEqual({
      ...emailMarketing,
      apiKey: ORDER_KEY_GIVEN,
    });
    const event = await eventOf(Topics.ServiceOrderSubmitted, id);
    expect(JSON.stringify(event.value)).not.toContain(emailMarketing.apiKey);
    // A key in clear is refused: it never reaches the service (nor the bus).
    await expectAppError(
      submit(
        form({ ticker: 'kcy', emailMarketing: { ...emailMarketing, apiKey: 'kestrel-mailchimp-key-us7' } }),
      ),
      'BAD_REQUEST',
      /sealed for its service, never in clear/,
    );

    // An order stored in clear before keys were sealed at rest is sealed by the migration.
    await db.query(
      `UPDATE stocks.service_orders SET email_marketing = jsonb_set(email_marketing, '{apiKey}', '"kestrel-mailchimp-key-us7"') WHERE id = $1`,
      [id],
    );
    const Migration = sealOrderEmailMarketingKeysMigration(
      new SecretBox(stocksSecretsKey({ NODE_ENV: 'test' })),
    );
    const runner = db.createQueryRunner();
    try {
      await new Migration().up(runner);
    } finally {
      await runner.release();
    }
    const [after] = (await db.query(
      `SELECT email_marketing->>'apiKey' AS key FROM stocks.service_orders WHERE id = $1`,
      [id],
    )) as Array<{ key: string }>;
    expect(after.key).toMatch(/^v1:/);
    expect(after.key).not.toBe(row.key);
    expect(new SecretBox(stocksSecretsKey({ NODE_ENV: 'test' })).open(after.key)).toBe(
      'kestrel-mailchimp-key-us7',
    );

    // For the email-marketing service to apply them: only once the stock is made; such a key in clear (a
    // release before keys were sealed on the bus) is not passed on, a sealed one is, as the gateway sent it.
    const ask = (serviceOrderId: string) =>
      requester.request(Topics.StocksServiceOrderEmailMarketing, { serviceOrderId });
    await expectAppError(ask(id), 'CONFLICT', `Service order ${id} has no stock created yet`);
    const unknown = '00000000-0000-4000-8000-00000000000f';
    await expectAppError(ask(unknown), 'NOT_FOUND', serviceOrderNotFoundMessage(unknown));
    const created = await createStock(id, 'KCX', '');
    const made = await eventOf(Topics.ServiceOrderStockCreated, id);
    expect(made.value).toMatchObject({ stockId: created.stockId, emailMarketing: true, by: 'alice' });
    expect(JSON.stringify(made.value)).not.toContain('kestrel-mailchimp-key');
    expect(await ask(id)).toEqual({ emailMarketing: { ...emailMarketing, apiKey: '' } });
    await db.query(
      `UPDATE stocks.service_orders SET email_marketing = jsonb_set(email_marketing, '{apiKey}', to_jsonb($2::text)) WHERE id = $1`,
      [id, row.key],
    );
    expect(await ask(id)).toEqual({ emailMarketing });
  });

  it('purges orders never turned into a stock once SERVICE_ORDER_RETENTION_DAYS have passed; created and younger ones stay', async () => {
    const { SERVICE_ORDER_RETENTION_DAYS: days } =
      app.get<Pick<StocksConfig, 'SERVICE_ORDER_RETENTION_DAYS'>>(SERVICE_CONFIG);
    const placedDaysAgo = (id: string, ago: number) =>
      db.query(
        `UPDATE stocks.service_orders SET timestamp = now() - make_interval(days => $2) WHERE id = $1`,
        [id, ago],
      );
    const { id: stale } = await submit(form({ ticker: 'OLD' }));
    const { id: younger } = await submit(form({ ticker: 'NEW' }));
    await placedDaysAgo(stale, days + 1);
    await placedDaysAgo(younger, days - 1);
    // The order made into KCU1 above is as old, but it is a client's now: kept.
    await placedDaysAgo(orderId, days + 1);

    expect(await app.get(PurgeStaleServiceOrders).run()).toBe(1);
    const ids = (await list()).map((o) => o.id);
    expect(ids).not.toContain(stale);
    expect(ids).toEqual(expect.arrayContaining([younger, orderId]));
    // Nothing left to purge: the next run deletes nothing.
    expect(await app.get(PurgeStaleServiceOrders).run()).toBe(0);
    expect(
      app
        .get(SingletonJobs)
        .list()
        .map((job) => job.name),
    ).toContain(PURGE_STALE_SERVICE_ORDERS_JOB);
  });

  describe('option groups (staff, the Orders screen)', () => {
    let mining = '';
    it('creates a second group beside the default, with its options in card order', async () => {
      const group = await saveGroup({
        name: 'Mining 2027',
        options: [
          { name: 'Essentials', price: 1200, lineItems: ['Widgets', ' ', 'Emails '], isDefault: false },
          { name: 'Complete', price: 2600, lineItems: ['Everything'], isDefault: true },
        ],
      });
      mining = group.id;
      expect(group).toMatchObject({ name: 'Mining 2027', isDefault: false, archived: false });
      expect(group.options.map((o) => [o.name, o.price, o.lineItems, o.isDefault])).toEqual([
        ['Essentials', 1200, ['Widgets', 'Emails'], false],
        ['Complete', 2600, ['Everything'], true],
      ]);
      expect(await offered(mining)).toEqual(group.options);
      // /new-order still shows the default group.
      expect((await offered(''))[0]?.groupId).toBe(standardId);
      expect((await groups()).map((g) => g.id)).toEqual([standardId, mining]);
    });

    it('edits a group: an option sent with its id keeps it, one left out goes, orders keep theirs', async () => {
      const [essentials] = await offered(mining);
      const { id: placed } = await submit(form({ ticker: 'MIN', option: essentials!.id }));
      const edited = await saveGroup({
        id: mining,
        name: 'Mining 2027',
        options: [{ ...essentials!, name: 'Essentials plus', price: 1500, isDefault: true }],
      });
      expect(edited.options).toEqual([
        expect.objectContaining({
          id: essentials!.id,
          name: 'Essentials plus',
          price: 1500,
          isDefault: true,
        }),
      ]);
      const order = (await list()).find((o) => o.id === placed);
      expect(order?.option).toEqual({ name: 'Essentials', price: 1200, lineItems: ['Widgets', 'Emails'] });
    });

    it('refuses what breaks the rules, changing nothing', async () => {
      const before = await groups();
      await expectAppError(
        saveGroup({ name: '', options: [] }),
        'BAD_REQUEST',
        'Group Name Required; Add at least one option',
      );
      await expectAppError(
        saveGroup({ name: 'mining 2027', options: [STANDARD] }),
        'CONFLICT',
        duplicateOptionGroupNameMessage('mining 2027'),
      );
      const [standardOption] = await offered(standardId);
      await expectAppError(
        saveGroup({ id: mining, name: 'Mining 2027', options: [{ ...STANDARD, id: standardOption!.id }] }),
        'BAD_REQUEST',
        foreignOptionMessage(1),
      );
      await expectAppError(
        saveGroup({ id: 'nope', name: 'Nope', options: [STANDARD] }),
        'NOT_FOUND',
        optionGroupNotFoundMessage('nope'),
      );
      await expectAppError(archiveGroup(standardId, true), 'CONFLICT', DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE);
      for (const call of [
        () => requester.request(Topics.StocksOptionGroups, { actor: REPORTS }),
        () => saveGroup({ name: 'Sneaky', options: [STANDARD] }, REPORTS),
        () => requester.request(Topics.StocksSetDefaultOptionGroup, { actor: REPORTS, id: mining }),
        () =>
          requester.request(Topics.StocksArchiveOptionGroup, { actor: REPORTS, id: mining, archived: true }),
      ])
        await expectAppError(call(), 'FORBIDDEN', /Admin/);
      expect(await groups()).toEqual(before);
    });

    it('makes another group the default, then archives the old one: its form says it is no longer offered', async () => {
      expect(await setDefault(mining)).toMatchObject({ id: mining, isDefault: true });
      expect((await offered(''))[0]?.groupId).toBe(mining);
      const [standardOption] = await offered(standardId);
      expect(await archiveGroup(standardId, true)).toMatchObject({ archived: true, isDefault: false });
      await expectAppError(offered(standardId), 'NOT_FOUND', OPTION_GROUP_ARCHIVED_MESSAGE);
      // A form opened before the archive cannot order its option any more.
      await expectAppError(
        submit(form({ option: standardOption!.id })),
        'BAD_REQUEST',
        UNKNOWN_OPTION_MESSAGE,
      );
      await expectAppError(setDefault(standardId), 'CONFLICT', ARCHIVED_OPTION_GROUP_EDIT_MESSAGE);
      await expectAppError(
        saveGroup({ id: standardId, name: 'Standard subscription', options: [STANDARD] }),
        'CONFLICT',
        ARCHIVED_OPTION_GROUP_EDIT_MESSAGE,
      );
      // Archived ones list last; orders placed with its option keep it.
      expect((await groups()).map((g) => [g.id, g.archived])).toEqual([
        [mining, false],
        [standardId, true],
      ]);
      expect((await list()).find((o) => o.id === orderId)?.option).toMatchObject({ price: 1800 });
      // Restored, it is offered again (not the default).
      expect(await archiveGroup(standardId, false)).toMatchObject({ archived: false, isDefault: false });
      expect(await offered(standardId)).toHaveLength(1);
    });
  });
});
