import { INestApplication } from '@nestjs/common';
import {
  ADDRESS_SUGGESTIONS_PAUSED_MESSAGE,
  API_KEY_MASK,
  DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE,
  EmailMarketingSettingsResponseSchema,
  EventOf,
  OPTION_GROUP_ARCHIVED_MESSAGE,
  OptionGroupListSchema,
  OptionGroupResponseSchema,
  ORDER_FORM_TOKEN_MESSAGE,
  REQUIRED_ORDER_FIELDS,
  ServiceOptionListSchema,
  ServiceOrderListSchema,
  SubmitOrderResponseSchema,
  Topics,
  unknownOptionGroupMessage,
} from '@irp/proto';
import { handledMessages, rawProducer, SinkMail, untilHandled } from '@irp/platform/testing';
import { Client } from 'pg';
import request from 'supertest';
import { issueOrderFormToken } from '../../src/orders/order-form-token';
import {
  clientOf,
  connectTestDatabase,
  MailBackend,
  runId,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
  until,
  untilErrorEmailProjected,
} from '../gateway-harness';

const RUN = runId();
/** Orders one address may place per window here. */
const PER_ADDRESS = 3;
const STAFF = `staff-${RUN.toLowerCase()}@provider.example`;

const form = (over: Record<string, unknown> = {}) => ({
  companyName: `Gateway Order ${RUN}`,
  ticker: `GO${RUN}`,
  website: 'https://gateway-order.example',
  address: '190 St Georges Terrace, Perth WA 6000',
  contactName: 'Priya Raman',
  contactPhone: '08 9322 4410',
  contactEmail: 'priya@gateway-order.example',
  abn: '51 824 753 556',
  authorisedBy: 'Priya Raman',
  ...over,
});

/**
 * Service orders through the gateway (docs/api/stocks.md, "Service orders") in front of the real users,
 * stocks, announcements and email-marketing services on the real broker, database and an SMTP sink: the
 * public form's 400 listing each missing field's message, the per-address limit, the staff mail of a new
 * order, and the staff routes refused to non-admins (401 signed out, 403 without Admin).
 */
export function serviceOrdersCases(shared: SharedBackend) {
  describe('service orders through the gateway against the real services', () => {
    let backend: MailBackend;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    let db: Client;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    // An address of this run: the limit's counts are the shared store's and outlive one test file.
    const address = `2001:db8::${parseInt(RUN.slice(-4), 36).toString(16)}`;
    // As the web form sends it: with the token fetched when the form was shown (this gateway takes it at once).
    const submit = async (body: object, from = address) =>
      http
        .post('/api/serviceorder/')
        .set('X-Forwarded-For', from)
        .send({ formToken: (await http.get('/api/serviceorder/form-token')).body.token, ...body });
    const orderCount = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM stocks.service_orders`)).rows[0].n;

    beforeAll(async () => {
      backend = shared.backend();
      db = await connectTestDatabase();
      ({ gateway, http } = await startTestGateway({
        ORDER_RATE_PER_ADDRESS: String(PER_ADDRESS),
        ORDER_RATE_WINDOW_MS: '3600000',
      }));
      ({ get, post } = clientOf(http, sessions));
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');
      sessions.reports = await signIn(http, 'reports', 'Reports!2026');
      const settings = (await get('/api/admin/systemSettings', 'admin')).body as Record<string, unknown>;
      const saved = await post('/api/admin/systemSettings', { ...settings, errorEmail: STAFF }, 'admin');
      expect(saved.status).toBe(200);
      await untilErrorEmailProjected(STAFF);
    });

    afterAll(async () => {
      await gateway?.close();
      await db?.end();
    });

    it('shows the default options publicly: 1800 + GST preselected', async () => {
      const res = await http.get('/api/serviceorder/services/');
      expect(res.status).toBe(200);
      // Spec section 7: the call "returns options".
      const { options } = ServiceOptionListSchema.parse(res.body);
      expect(options.find((o) => o.isDefault)).toMatchObject({ price: 1800 });
      // An unknown group says so (404), never answering another group's prices.
      const unknown = await http.get('/api/serviceorder/services/?groupId=nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessage).toBe(unknownOptionGroupMessage('nope'));
    });

    it("answers an empty form 400 listing each required field's message, and stores nothing", async () => {
      const before = await orderCount();
      const res = await submit({});
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe(REQUIRED_ORDER_FIELDS.map(([, message]) => message).join('; '));
      const some = await submit(form({ companyName: ' ', contactPhone: '' }));
      expect(some.status).toBe(400);
      expect(some.body.errorMessage).toBe('Company Name Required; Contact Phone Required');
      expect(await orderCount()).toBe(before);
    });

    it('stores a complete order and mails staff about it', async () => {
      const { options } = ServiceOptionListSchema.parse((await http.get('/api/serviceorder/services/')).body);
      const res = await submit(
        form({ option: options[0].id, confirmationEmail: 'ir@gateway-order.example' }),
      );
      expect(res.status).toBe(200);
      const { id } = SubmitOrderResponseSchema.parse(res.body);
      const list = ServiceOrderListSchema.parse((await get('/api/admin/serviceOrders/', 'admin')).body);
      expect(list.serviceOrders.find((o) => o.id === id)).toMatchObject({
        companyName: `Gateway Order ${RUN}`,
        option: { price: 1800 },
        isCreated: false,
      });
      const mails = await until(
        async () =>
          backend.sink.to(STAFF).filter((m: SinkMail) => m.subject.includes(`Gateway Order ${RUN}`)),
        (m) => m.length > 0,
        'the staff mail about the new order',
        40_000,
      );
      expect(mails[0].subject).toContain('New service order');
      expect(mails[0].text).toContain('Create its stock from the Orders page.');
    });

    it('refuses orders past the per-address limit with 429 and Retry-After', async () => {
      // One order placed above; invalid forms did not count.
      for (let i = 1; i < PER_ADDRESS; i++) expect((await submit(form())).status).toBe(200);
      const before = await orderCount();
      const refused = await submit(form());
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.errorMessage).toMatch(/^Too many orders: try again in \d+ seconds$/);
      expect(await orderCount()).toBe(before);
      // Another address has its own budget.
      expect((await submit(form(), `${address}:1`)).status).toBe(200);
    });

    it("stops asking the address vendor once a session's cap or everyone's budget is spent: available false with a note, never a 429", async () => {
      // The global budget is one count for every gateway (and every test file): this case starts it afresh.
      const forgetBudget = () =>
        db.query(
          `DELETE FROM gateway.rate_limits WHERE key LIKE 'address-budget-%' OR key LIKE 'address-session%'`,
        );
      await forgetBudget();
      const budgeted = await startTestGateway({
        ADDRESS_LOOKUPS_PER_SESSION: '2',
        ADDRESS_LOOKUP_BUDGET_PER_MINUTE: '1000',
        ADDRESS_LOOKUP_BUDGET_PER_DAY: '3',
      });
      try {
        const stocks = backend.stocks.healthUrl;
        const lookup = (q: string, sessionToken: string) =>
          budgeted.http
            .get('/api/serviceorder/addresses')
            .query({ q, sessionToken })
            .set('X-Forwarded-For', `${address}:a`);
        const asked = await handledMessages(stocks, Topics.StocksAddressSuggestions);
        const first = `first-${RUN}`;
        const second = `second-${RUN}`;
        // Two lookups of one session reach the stocks service (no vendor configured there: no note).
        for (const q of ['190 St', '190 St Ge']) {
          const res = await lookup(q, first);
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ available: false, suggestions: [] });
        }
        await untilHandled(stocks, Topics.StocksAddressSuggestions, asked + 2);
        // The session's third is not asked for: the form's plain field, and why.
        const paused = { available: false, suggestions: [], message: ADDRESS_SUGGESTIONS_PAUSED_MESSAGE };
        const capped = await lookup('190 St Georges', first);
        expect(capped.status).toBe(200);
        expect(capped.body).toEqual(paused);
        // Too short to ask the vendor: passed on (the stocks service asks nobody for it), not counted.
        expect((await lookup('19', second)).body).toEqual({ available: false, suggestions: [] });
        // Another session has its own cap, but everyone's day budget (3) has one lookup left.
        expect((await lookup('12 Mounts Bay', second)).body).toEqual({ available: false, suggestions: [] });
        expect((await lookup('12 Mounts Bay Rd', second)).body).toEqual(paused);
        expect((await lookup('1 Hay St', `third-${RUN}`)).body).toEqual(paused);
        // Four lookups reached the stocks service (the short one included), none once a budget was spent.
        await untilHandled(stocks, Topics.StocksAddressSuggestions, asked + 4);
        expect(await handledMessages(stocks, Topics.StocksAddressSuggestions)).toBe(asked + 4);
      } finally {
        await budgeted.gateway.close();
        await forgetBudget();
      }
    });

    it('answers a form whose hidden honeypot field is filled as if stored, and stores and mails nothing', async () => {
      const before = await orderCount();
      const res = await submit(
        form({ companyName: `Honeypot ${RUN}`, fax: '+61 8 9000 0000' }),
        `${address}:3`,
      );
      expect(res.status).toBe(200);
      const { id } = SubmitOrderResponseSchema.parse(res.body);
      expect(await orderCount()).toBe(before);
      const list = ServiceOrderListSchema.parse((await get('/api/admin/serviceOrders/', 'admin')).body);
      expect(
        list.serviceOrders.find((o) => o.id === id || o.companyName === `Honeypot ${RUN}`),
      ).toBeUndefined();
      // The same form with the field left empty, as a person sends it, is an order.
      const person = await submit(form({ companyName: `Person ${RUN}`, fax: '' }), `${address}:3`);
      expect(person.status).toBe(200);
      expect(await orderCount()).toBe(before + 1);
    });

    it('refuses an order without a valid form token, sooner than ORDER_FORM_MIN_FILL_MS after it, or past its age: one 400, nothing stored', async () => {
      const minFill = 3000;
      const maxAge = 3_600_000;
      const secret = `order-form-token-test-secret-${RUN}-0123456789`;
      const timed = await startTestGateway({
        ORDER_FORM_MIN_FILL_MS: String(minFill),
        ORDER_FORM_TOKEN_MAX_AGE_MS: String(maxAge),
        SESSION_SECRET: secret,
      });
      try {
        const send = (formToken?: string) =>
          timed.http
            .post('/api/serviceorder/')
            .set('X-Forwarded-For', `${address}:4`)
            .send(form({ companyName: `Timed ${RUN}`, ...(formToken === undefined ? {} : { formToken }) }));
        const refused = (what: string, res: request.Response) =>
          expect({ what, status: res.status, errorMessage: res.body.errorMessage }).toEqual({
            what,
            status: 400,
            errorMessage: ORDER_FORM_TOKEN_MESSAGE,
          });
        const before = await orderCount();
        refused('no token', await send());
        const issued = await timed.http.get('/api/serviceorder/form-token');
        expect(issued.status).toBe(200);
        const token = String(issued.body.token);
        const shownAt = Number(token.split('.')[0]);
        const refusals = {
          // First, while the clock is fresh: a loaded machine may take a while over the others.
          'sent at once': token,
          'a blank token': '',
          'not a token': 'let-me-in',
          'the time moved back': `${shownAt - 60_000}.${token.split('.').slice(1).join('.')}`,
          "another secret's": issueOrderFormToken(`another-secret-${RUN}-0123456789abcdef`, shownAt - 60_000),
          'past its age': issueOrderFormToken(secret, Date.now() - maxAge - 60_000),
        };
        for (const [what, formToken] of Object.entries(refusals)) refused(what, await send(formToken));
        expect(await orderCount()).toBe(before);
        // The same token once a person could have filled the form in: taken.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, shownAt + minFill - Date.now() + 50)));
        const taken = await send(token);
        expect(taken.status).toBe(200);
        expect(await orderCount()).toBe(before + 1);
      } finally {
        await timed.gateway.close();
      }
    });

    it('keeps the staff routes to admins: 401 signed out, 403 for a report-runner', async () => {
      const [order] = ServiceOrderListSchema.parse(
        (await get('/api/admin/serviceOrders/', 'admin')).body,
      ).serviceOrders;
      const create = { serviceOrderId: order.id, ticker: `GX${RUN}`, reference: 'X' };
      expect((await get('/api/admin/serviceOrders/')).status).toBe(401);
      expect((await get('/api/admin/serviceOrders/', 'reports')).status).toBe(403);
      expect((await post('/api/admin/createStockFromServiceOrder/', create)).status).toBe(401);
      expect((await post('/api/admin/createStockFromServiceOrder/', create, 'reports')).status).toBe(403);
      expect((await get('/api/admin/getServiceOrder?ticker=ABC:ASX', 'reports')).status).toBe(403);
      const stocks = await db.query(`SELECT 1 FROM stocks.stocks WHERE ticker = $1`, [`GX${RUN}`]);
      expect(stocks.rowCount).toBe(0);
    });

    it('creates the stock as admin: its url, then a clear error when asked again', async () => {
      const [order] = ServiceOrderListSchema.parse(
        (await get('/api/admin/serviceOrders/', 'admin')).body,
      ).serviceOrders;
      const bad = await post(
        '/api/admin/createStockFromServiceOrder/',
        { serviceOrderId: order.id, ticker: 'x!', reference: '' },
        'admin',
      );
      expect({ status: bad.status, errorMessage: bad.body.errorMessage }).toEqual({
        status: 400,
        errorMessage: 'Please define a valid ticker',
      });
      const res = await post(
        '/api/admin/createStockFromServiceOrder/',
        { serviceOrderId: order.id, ticker: `gc${RUN}`, reference: `REF-${RUN}` },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ url: `/stocks/GC${RUN}:ASX`, errorMessage: null });
      const again = await post(
        '/api/admin/createStockFromServiceOrder/',
        { serviceOrderId: order.id, ticker: `GD${RUN}`, reference: '' },
        'admin',
      );
      expect(again.status).toBe(409);
      expect(again.body.errorMessage).toBe(`This service order has already been created as GC${RUN}:ASX`);
      const summary = await get(`/api/admin/getServiceOrder?ticker=GC${RUN}:ASX`, 'admin');
      expect(summary.status).toBe(200);
      expect(summary.body).toMatchObject({ id: order.id, reference: `REF-${RUN}`, isCreated: true });
    });

    it("applies the order's email-marketing settings to the stock made from it: sealed at rest, masked on the tab, and a later save never undone", async () => {
      const given = {
        service: 'campaign-monitor' as const,
        listId: `cm-list-${RUN}`,
        apiKey: `cm-key-${RUN}-only-for-this-order`,
        templateId: 'order-template',
        replyTo: 'ir@gateway-order.example',
        fromName: 'Gateway Order IR',
        clientId: `cm-client-${RUN}`,
      };
      // Its own address: the limit's test above spent this run's.
      const res = await submit(form({ ticker: `GE${RUN}`, emailMarketing: given }), `${address}:2`);
      expect(res.status).toBe(200);
      const { id } = SubmitOrderResponseSchema.parse(res.body);
      const created = await post(
        '/api/admin/createStockFromServiceOrder/',
        { serviceOrderId: id, ticker: `GE${RUN}`, reference: '' },
        'admin',
      );
      expect(created.body).toEqual({ url: `/stocks/GE${RUN}:ASX`, errorMessage: null });
      const stockId = (
        await db.query<{ id: string }>(`SELECT id FROM stocks.stocks WHERE ticker = $1`, [`GE${RUN}`])
      ).rows[0]!.id;
      const settingsOf = async () =>
        EmailMarketingSettingsResponseSchema.parse(
          (await get(`/api/emailMarketingSettings/?id=${stockId}`, 'admin')).body,
        ).settings;

      // service-order.stock-created, then email-marketing asks stocks for the settings and stores them.
      const applied = await until(
        settingsOf,
        (s) => s !== null,
        "the order's settings on the new stock",
        60_000,
      );
      expect(applied).toEqual({
        stockId,
        provider: 'campaign-monitor',
        listId: given.listId,
        apiKey: API_KEY_MASK,
        apiKeySet: true,
        templateId: given.templateId,
        replyTo: given.replyTo,
        fromName: given.fromName,
        savedSegmentId: '',
        clientId: given.clientId,
        testEmailAddresses: '',
      });
      // Sealed in both services' tables; saved in the name of the admin who created the stock.
      const stored = (
        await db.query<{ api_key: string; updated_by: string }>(
          `SELECT api_key, updated_by FROM email_marketing.settings WHERE stock_id = $1`,
          [stockId],
        )
      ).rows[0]!;
      expect(stored.updated_by).toBe('admin');
      expect(stored.api_key).not.toContain(given.apiKey);
      const order = await db.query<{ em: string }>(
        `SELECT email_marketing::text AS em FROM stocks.service_orders WHERE id = $1`,
        [id],
      );
      expect(order.rows[0]!.em).not.toContain(given.apiKey);

      // The client changes them; the same event delivered again (a consumer's retry) changes nothing.
      const saved = await post(
        '/api/emailMarketingSettings/',
        {
          StockId: stockId,
          Settings: {
            provider: 'campaign-monitor',
            listId: given.listId,
            apiKey: '',
            templateId: given.templateId,
            replyTo: given.replyTo,
            fromName: 'Changed IR',
            clientId: given.clientId,
          },
        },
        'admin',
      );
      expect(saved.status).toBe(200);
      const email = backend.email.healthUrl;
      const before = await handledMessages(email, Topics.ServiceOrderStockCreated);
      const producer = await rawProducer();
      try {
        const event: EventOf<typeof Topics.ServiceOrderStockCreated> = {
          serviceOrderId: id,
          stockId,
          combinedTicker: `GE${RUN}:ASX`,
          emailMarketing: true,
          by: 'admin',
        };
        await producer.send({
          topic: Topics.ServiceOrderStockCreated,
          messages: [{ key: id, value: JSON.stringify(event) }],
        });
      } finally {
        await producer.disconnect();
      }
      await untilHandled(email, Topics.ServiceOrderStockCreated, before + 1);
      expect(await settingsOf()).toMatchObject({
        fromName: 'Changed IR',
        apiKeySet: true,
        listId: given.listId,
      });
    });

    it('lets admins manage option groups: create with two options, offered publicly, archived: no longer offered', async () => {
      const body = {
        name: `Gateway group ${RUN}`,
        options: [
          { name: 'Essentials', price: 1200, lineItems: ['Widgets', 'Emails'], isDefault: false },
          { name: 'Complete', price: 2600, lineItems: ['Everything'], isDefault: true },
        ],
      };
      const created = await post('/api/admin/saveServiceOptionGroup', body, 'admin');
      expect(created.status).toBe(200);
      const { group } = OptionGroupResponseSchema.parse(created.body);
      // The demo's group stays the default: /new-order is unchanged.
      expect(group).toMatchObject({ name: body.name, isDefault: false, archived: false });
      const offered = await http.get(`/api/serviceorder/services/?groupId=${group.id}`);
      expect(offered.status).toBe(200);
      expect(ServiceOptionListSchema.parse(offered.body).options.map((o) => [o.name, o.price])).toEqual([
        ['Essentials', 1200],
        ['Complete', 2600],
      ]);
      const listed = OptionGroupListSchema.parse((await get('/api/admin/serviceOptionGroups', 'admin')).body);
      expect(listed.groups.find((g) => g.id === group.id)?.options).toHaveLength(2);
      expect(listed.groups[0]?.isDefault).toBe(true);

      // Every problem is listed in one 400; a field of the wrong shape is named.
      const bad = await post('/api/admin/saveServiceOptionGroup', { name: ' ', options: [] }, 'admin');
      expect({ status: bad.status, errorMessage: bad.body.errorMessage }).toEqual({
        status: 400,
        errorMessage: 'Group Name Required; Add at least one option',
      });
      // The default group is not archived; the new one is, and its form says it is no longer offered.
      const defaultId = listed.groups[0]!.id;
      const refused = await post(
        '/api/admin/archiveServiceOptionGroup',
        { id: defaultId, archived: true },
        'admin',
      );
      expect({ status: refused.status, errorMessage: refused.body.errorMessage }).toEqual({
        status: 409,
        errorMessage: DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE,
      });
      const archived = await post(
        '/api/admin/archiveServiceOptionGroup',
        { id: group.id, archived: true },
        'admin',
      );
      expect(archived.status).toBe(200);
      expect(OptionGroupResponseSchema.parse(archived.body).group.archived).toBe(true);
      const gone = await http.get(`/api/serviceorder/services/?groupId=${group.id}`);
      expect({ status: gone.status, errorMessage: gone.body.errorMessage }).toEqual({
        status: 404,
        errorMessage: OPTION_GROUP_ARCHIVED_MESSAGE,
      });
      // Making the default the default again changes nothing for the other groups of this backend.
      const again = await post('/api/admin/setDefaultServiceOptionGroup', { id: defaultId }, 'admin');
      expect(again.status).toBe(200);
      expect(OptionGroupResponseSchema.parse(again.body).group).toMatchObject({
        id: defaultId,
        isDefault: true,
      });
    });

    it('keeps the option group routes to admins: 401 signed out, 403 for a report-runner, nothing changed', async () => {
      const count = async () =>
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM stocks.service_option_groups`)).rows[0]
          .n;
      const before = await count();
      const { groups } = OptionGroupListSchema.parse(
        (await get('/api/admin/serviceOptionGroups', 'admin')).body,
      );
      const id = groups[0]!.id;
      const group = {
        name: `Refused ${RUN}`,
        options: [{ name: 'X', price: 1, lineItems: [], isDefault: true }],
      };
      for (const who of [undefined, 'reports'] as const) {
        const expected = who ? 403 : 401;
        expect((await get('/api/admin/serviceOptionGroups', who)).status).toBe(expected);
        expect((await post('/api/admin/saveServiceOptionGroup', group, who)).status).toBe(expected);
        expect((await post('/api/admin/setDefaultServiceOptionGroup', { id }, who)).status).toBe(expected);
        expect((await post('/api/admin/archiveServiceOptionGroup', { id, archived: true }, who)).status).toBe(
          expected,
        );
      }
      expect(await count()).toBe(before);
      expect(
        OptionGroupListSchema.parse((await get('/api/admin/serviceOptionGroups', 'admin')).body).groups[0],
      ).toMatchObject({
        id,
        isDefault: true,
        archived: false,
      });
    });
  });
}
