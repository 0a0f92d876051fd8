import { INestApplication } from '@nestjs/common';
import { GlobalRole, Stock, StockRole, Topics } from '@irp/proto';
import { handledMessages, untilHandled } from '@irp/platform/testing';
import request from 'supertest';
import {
  clientOf,
  connectTestDatabase,
  createStockAsAdmin,
  MailBackend,
  runId,
  seedTestUsers,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
  until,
} from '../gateway-harness';

const RUN = runId();
const PASSWORD = 'InvoiceTest!2026';

type Held = { InvoiceID: string; InvoiceNumber: string; Reference: string; AmountDue: number };

/**
 * The invoicing routes through the gateway on the real services and the accounting stand-in (its own
 * process): what each caller may read and download, the client form's invoice fields only for holders of
 * Invoicing, the accounting system's refusals as messages, bad input as 400, an outage as 503.
 */
export function invoicingCases(shared: SharedBackend) {
  describe('gateway invoicing routes against the real services', () => {
    let backend: MailBackend;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let A: Stock; // holder: Invoicing + ViewConfig; config: ViewConfig only
    let B: Stock; // no invoices, no contact
    let held: Held[];
    let accountingUrl: string;

    const heldInvoices = async (reference: string) =>
      (
        (await (await fetch(`${accountingUrl}/standin/invoices?reference=${reference}`)).json()) as {
          Invoices: Held[];
        }
      ).Invoices;

    beforeAll(async () => {
      backend = shared.backend();
      accountingUrl = backend.accounting.url;
      ({ gateway, http } = await startTestGateway());
      ({ get, post } = clientOf(http, sessions));
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');
      sessions.reports = await signIn(http, 'reports', 'Reports!2026');
      const newApiKey = async () => (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;
      A = await createStockAsAdmin(post, {
        ticker: `IA${RUN}`,
        companyName: `Invoiced Alpha ${RUN}`,
        apiKey: await newApiKey(),
        accountingReference: `IA-${RUN}`,
      });
      B = await createStockAsAdmin(post, { ticker: `IB${RUN}`, companyName: `Invoiced Beta ${RUN}` });
      await seedTestUsers(PASSWORD, [
        { username: 'inv-test-holder', stockRoles: { [A.id]: [StockRole.Invoicing, StockRole.ViewConfig] } },
        { username: 'inv-test-config', stockRoles: { [A.id]: [StockRole.ViewConfig] } },
        // Staff without Admin: the report-runner who also sees the repeating invoice total (spec section 6).
        {
          username: 'inv-test-total',
          roles: [GlobalRole.RunReports, GlobalRole.InvoiceTotal],
          stockRoles: {},
        },
      ]);
      for (const who of ['holder', 'config', 'total'])
        sessions[who] = await signIn(http, `inv-test-${who}`, PASSWORD);

      const seeded = await fetch(`${accountingUrl}/standin/invoices`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: 5, reference: `IA-${RUN}` }),
      });
      expect(seeded.status).toBe(201);
      held = await heldInvoices(`IA-${RUN}`);
      // The service learns of A from stock.upserted (no call to the accounting system while it waits: its
      // limit of 60 a minute is the tests' too), then reads the new invoices on one refresh.
      await until(
        async () => (await get(`/api/admin/invoices?ticker=${A.combinedTicker}`, 'admin')).status,
        (status) => status === 200,
        `the invoicing service knowing ${A.combinedTicker}`,
        30_000,
      );
      expect((await post('/api/admin/refreshAccounting', {}, 'admin')).status).toBe(200);
      const data = (await get(`/api/admin/invoices?ticker=${A.combinedTicker}`, 'admin')).body;
      expect(data.invoices).toHaveLength(held.length);
    });

    afterAll(async () => {
      await gateway?.close();
    });

    it("gives InvoiceTotal holders and admins a stock's invoice data; refuses the others", async () => {
      const res = await get(`/api/admin/invoices?ticker=${A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ stockId: A.id, reference: `IA-${RUN}`, defaultRepeatingAmount: 1800 });
      expect(res.body.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber).sort()).toEqual(
        held.map((i) => i.InvoiceNumber).sort(),
      );
      expect((await get(`/api/admin/invoices?ticker=${A.combinedTicker}`, 'reports')).status).toBe(403);
      expect((await get(`/api/admin/invoices?ticker=${A.combinedTicker}`, 'holder')).status).toBe(403);
      expect((await http.get(`/api/admin/invoices?ticker=${A.combinedTicker}`)).status).toBe(401);
      const unknown = await get('/api/admin/invoices?ticker=NOPE:ASX', 'admin');
      expect(unknown.status).toBe(404);
      expect((await get('/api/admin/invoices', 'admin')).body.errorMessage).toBe(
        'ticker: ticker is required',
      );
    });

    it('shows the invoice fields of the client form only to holders of Invoicing', async () => {
      const holder = (await get('/api/clientDashboard/', 'holder')).body.stocks.find(
        (s: Stock) => s.id === A.id,
      );
      const newest = (await get(`/api/admin/invoices?ticker=${A.combinedTicker}`, 'admin')).body.invoices[0];
      expect(holder).toMatchObject({
        invoiceId: newest.invoiceID,
        invoiceNumber: newest.invoiceNumber,
        invoiceTotal: newest.total,
        invoiceStatus: newest.status,
        invoiceDate: newest.date,
      });
      const config = (await get('/api/clientDashboard/', 'config')).body.stocks.find(
        (s: Stock) => s.id === A.id,
      );
      expect(config).toBeDefined();
      for (const field of ['invoiceId', 'invoiceNumber', 'invoiceTotal', 'invoiceStatus', 'invoiceDate'])
        expect(config).not.toHaveProperty(field);
    });

    it("downloads a stock's invoice PDF for a holder of Invoicing, never another stock's", async () => {
      const invoice = held[0];
      const path = (ticker: string, id: string) => `/api/invoice?ticker=${ticker}&invoiceId=${id}`;
      const res = await get(path(A.combinedTicker, invoice.InvoiceID), 'holder')
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-disposition']).toContain(`${invoice.InvoiceNumber}.pdf`);
      expect((res.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');

      expect((await get(path(A.combinedTicker, invoice.InvoiceID), 'config')).status).toBe(403);
      expect((await get(path(B.combinedTicker, invoice.InvoiceID), 'holder')).status).toBe(403);
      // An invoice of another stock named with A: 404, whoever asks.
      const bhpInvoice = (await heldInvoices('BHP-2023-001'))[0];
      const other = await get(path(A.combinedTicker, bhpInvoice.InvoiceID), 'holder');
      expect(other.status).toBe(404);
      expect(other.body.errorMessage).toBe(
        `${A.combinedTicker} has no invoice with the id ${bhpInvoice.InvoiceID.toLowerCase()}`,
      );
      const traversal = await get(path(A.combinedTicker, '../../etc/passwd'), 'admin');
      expect(traversal.status).toBe(400);
    });

    it("answers the accounting system's refusals as messages and bad input as 400, changing nothing", async () => {
      const notANumber = await post(
        '/api/admin/createRepeatingInvoice',
        { id: B.id, amount: 'abc' },
        'admin',
      );
      expect(notANumber.status).toBe(400);
      expect(notANumber.body.errorMessage).toBe('amount: amount must be a number');
      const noContact = await post('/api/admin/createRepeatingInvoice', { id: B.id, amount: 1800 }, 'admin');
      expect(noContact.status).toBe(200);
      expect(noContact.body).toEqual({
        success: false,
        repeatingInvoice: null,
        errorMessage: `${B.combinedTicker} has no contact in the accounting system yet: create the contact first`,
      });
      expect((await post('/api/admin/createContact?id=not-a-uuid', {}, 'admin')).status).toBe(400);

      const created = await post(`/api/admin/createContact?id=${B.id}`, {}, 'admin');
      expect(created.body).toMatchObject({ success: true, errorMessage: null });
      const again = await post(`/api/admin/createContact?id=${B.id}`, {}, 'admin');
      expect(again.body).toEqual({
        success: false,
        contactId: null,
        // The accounting system's own words stay in the invoicing service's log, under the reference.
        errorMessage: expect.stringMatching(
          /^The accounting system refused the request \(reference [0-9a-f]{8}\)$/,
        ),
      });
      const repeating = await post(
        '/api/admin/createRepeatingInvoice',
        { id: B.id, amount: '2400' },
        'admin',
      );
      expect(repeating.body).toMatchObject({
        success: true,
        errorMessage: null,
        repeatingInvoice: { totalCents: 264_000 },
      });
      const data = (await get(`/api/admin/invoices?ticker=${B.combinedTicker}`, 'admin')).body;
      expect(data).toMatchObject({
        contactId: created.body.contactId,
        repeatingInvoiceId: repeating.body.repeatingInvoice.id,
      });

      const unknownTicker = await post(
        '/api/admin/assignAccountingInvoices',
        { items: [{ invoiceId: held[0].InvoiceID, ticker: 'NOPE:ASX' }] },
        'admin',
      );
      expect(unknownTicker.status).toBe(400);
      expect(unknownTicker.body.errorMessage).toBe('No stock has the ticker NOPE:ASX');
      const both = await post(
        '/api/admin/assignAccountingInvoices',
        { items: [{ invoiceId: held[0].InvoiceID, ticker: A.combinedTicker, ignore: true }] },
        'admin',
      );
      expect(both.status).toBe(400);
    });

    it('gives a RunReports + InvoiceTotal user the Invoices tab and the figures the dashboard total sums', async () => {
      // B got its repeating invoice in the test before: the admin's row shows it once the service has it.
      const rowOf = async (who: string) =>
        (await get('/api/admin/stocks', who)).body.find((s: Stock) => s.id === B.id);
      const adminRow = await until(
        () => rowOf('admin'),
        (row) => Boolean(row?.repeatingInvoice),
        `the dashboard showing ${B.combinedTicker}'s repeating invoice`,
      );
      expect(adminRow.repeatingInvoice.amountCents).toBeGreaterThan(0);
      const totalRow = await rowOf('total');
      expect(totalRow.repeatingInvoice).toEqual(adminRow.repeatingInvoice);
      // Only the figures the total sums: no admin column.
      for (const field of ['apiKey', 'pollAsx', 'subscriptionExpired', 'emailMarketing', 'invoice'])
        expect(totalRow).not.toHaveProperty(field);
      // A report-runner without InvoiceTotal still gets the summary alone.
      expect(await rowOf('reports')).not.toHaveProperty('repeatingInvoice');
      // The Invoices tab's calls answer them, as its route rule says (Admin or InvoiceTotal).
      const invoices = await get(`/api/admin/invoices?ticker=${B.combinedTicker}`, 'total');
      expect(invoices.status).toBe(200);
      expect(invoices.body.repeatingInvoiceId).toBe(adminRow.repeatingInvoice.repeatingInvoiceId);
    });

    it('answers the whole staff list when it comes in pages of 2: every stock once, in order, each composed', async () => {
      const paged = await startTestGateway({ STOCK_LIST_PAGE_SIZE: '2' });
      try {
        const pagedGet = clientOf(request(paged.gateway.getHttpServer()), sessions).get;
        const db = await connectTestDatabase();
        const { rows: before } = await db
          .query<{ id: string }>('SELECT id FROM stocks.stocks')
          .finally(() => db.end());
        expect(before.length).toBeGreaterThan(4);
        for (const who of ['admin', 'total']) {
          const asked = await handledMessages(backend.stocks.healthUrl, Topics.StocksList);
          const res = await pagedGet('/api/admin/stocks', who);
          expect(res.status).toBe(200);
          // A page of two stocks a message: the stocks service handled a request for each (counted after it
          // replied, so waited for).
          await untilHandled(
            backend.stocks.healthUrl,
            Topics.StocksList,
            asked + Math.ceil(res.body.length / 2),
          );
          expect(res.headers['x-unavailable-services']).toBe('');
          const rows = res.body as Stock[];
          const ids = rows.map((r) => r.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids).toEqual(expect.arrayContaining(before.map((r) => r.id)));
          const order = rows.map((r) => `${r.created} ${r.id}`);
          expect(order).toEqual(
            [...rows]
              .sort((a, b) =>
                a.created === b.created ? (a.id < b.id ? -1 : 1) : a.created > b.created ? -1 : 1,
              )
              .map((r) => `${r.created} ${r.id}`),
          );
          // A's and B's composed columns as the one-page gateway answers them.
          const whole = (await get('/api/admin/stocks', who)).body as Stock[];
          for (const stock of [A, B])
            expect(rows.find((r) => r.id === stock.id)).toEqual(whole.find((r) => r.id === stock.id));
          expect(rows.find((r) => r.id === B.id)).toHaveProperty('repeatingInvoice.amountCents');
        }
      } finally {
        await paged.gateway.close();
      }
    });

    it('writes the reminder mail of the unpaid invoices', async () => {
      const res = await get(`/api/admin/accountingReminderEmail/${A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      const unpaid = held.filter((i) => i.AmountDue > 0);
      expect(res.body.unpaidCount).toBe(unpaid.length);
      for (const i of unpaid) expect(res.body.html).toContain(i.InvoiceNumber);
      expect((await get(`/api/admin/accountingReminderEmail/${A.combinedTicker}`, 'holder')).status).toBe(
        403,
      );
    });

    it("reads the accounting page's lists on after a cursor, for admins and InvoiceTotal holders; bad cursors are 4xx", async () => {
      const page = await get('/api/admin/accountingInvoices', 'admin');
      expect(page.status).toBe(200);
      const lines = page.body.invoices as Array<{ invoiceID: string }>;
      expect(lines.length).toBeGreaterThan(1);
      expect(page.body.invoicesNext).toBeNull();
      // The page after its first line is the rest of it, and none follows.
      for (const who of ['admin', 'total']) {
        const later = await get(`/api/admin/accountingInvoices/unassigned?after=${lines[0].invoiceID}`, who);
        expect(later.status).toBe(200);
        expect(later.body).toEqual({ invoices: lines.slice(1), next: null });
      }
      const refused = [
        ['holder', `/api/admin/accountingInvoices/unassigned?after=${lines[0].invoiceID}`, 403, null],
        [
          'admin',
          `/api/admin/accountingInvoices/paid?after=${lines[0].invoiceID}`,
          400,
          /list must be unassigned or ignored/,
        ],
        ['admin', '/api/admin/accountingInvoices/ignored', 400, /after/],
        [
          'admin',
          '/api/admin/accountingInvoices/ignored?after=%27%3B--',
          400,
          /must be the `next` of a previous page/,
        ],
        [
          'admin',
          '/api/admin/accountingInvoices/ignored?after=no-such-invoice',
          404,
          /^The invoices changed since this list was read: reload the page to see them$/,
        ],
      ] as const;
      for (const [who, path, status, message] of refused) {
        const res = await get(path, who);
        expect({ path, status: res.status }).toEqual({ path, status });
        if (message) expect(res.body.errorMessage).toMatch(message);
      }
    });

    it('an accounting outage on refresh is a 503 with its message; the page still reads', async () => {
      const fault = await fetch(`${accountingUrl}/standin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'fail', route: 'invoices', status: 503 }),
      });
      expect(fault.status).toBeLessThan(300);
      try {
        const res = await post('/api/admin/refreshAccounting', {}, 'admin');
        expect(res.status).toBe(503);
        expect(res.body.errorMessage).toMatch(/^The accounting system answered 503/);
      } finally {
        await fetch(`${accountingUrl}/standin/faults`, { method: 'DELETE' });
      }
      const page = await get('/api/admin/accountingInvoices', 'admin');
      expect(page.status).toBe(200);
      expect(page.body.stocks.some((s: { ticker: string }) => s.ticker === A.combinedTicker)).toBe(true);
    });
  });
}
