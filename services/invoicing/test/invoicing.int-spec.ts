import { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ACCOUNTING_INVOICE_PAGE_SIZE, DEMO_ACCOUNTING_CLIENT, Stock, Topics } from '@irp/proto';
import { actor, stockFixture } from '@irp/proto/testing';
import { KafkaRequester } from '@irp/platform';
import {
  captureLogs,
  createTestRequester,
  dropSchema,
  expectAppError,
  loggedUnderReference,
  serviceTestEnv,
} from '@irp/platform/testing';
import { AccountingStandIn, startAccountingStandIn } from '@irp/standins/accounting';
import { DataSource } from 'typeorm';
import { AccountingSync } from '../src/invoices/accounting-sync';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import { startInvoicingService } from '../src/main';

jest.setTimeout(300_000);

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The invoicing service on the real broker and database against the accounting stand-in (Xero's API shape,
 * its limits and errors): sync (paging, If-Modified-Since, 429s, an outage), matching by reference then by
 * assignment, the accounting page, contacts and repeating invoices with the API's error texts, reminder
 * mails, PDFs, and the dashboards' columns with the 90-day overdue rule.
 */
describe('invoicing service against the accounting stand-in', () => {
  let app: INestApplication;
  let db: DataSource;
  let requester: KafkaRequester;
  let standIn: AccountingStandIn;
  let sync: AccountingSync;
  const admin = actor({ username: 'admin', roles: ['Admin'] });
  const today = isoDay(Date.now());

  const run = Date.now().toString(36).slice(-4).toUpperCase();
  const stock = (ticker: string, fields: Partial<Stock> = {}): Stock =>
    stockFixture({
      id: randomUUID(),
      ticker: `${ticker}${run}`,
      combinedTicker: `${ticker}${run}:ASX`,
      apiKey: randomUUID().replace(/-/g, ''),
      updatedAt: new Date().toISOString(),
      ...fields,
    });
  const bhp = stock('BHP', { companyName: 'BHP Group', accountingReference: 'bhp-2023-001 ' });
  const vod = stock('VOD', { companyName: 'Vodafone <Group> & Co', accountingReference: 'VOD-UK-17' });
  const wes = stock('WES', {
    companyName: 'Wesfarmers',
    websiteUrl: 'wesfarmers.example',
    accountingReference: '',
  });
  const fresh = stock('NEW', {
    companyName: `New Listing ${run}`,
    contactEmail: 'billing@newlisting.example; cfo@newlisting.example',
    accountingReference: `NEW-${run}`,
  });
  const archived = stock('OLD', { archived: true, accountingReference: '' });

  async function refusal(run: () => Promise<unknown>) {
    try {
      await run();
    } catch (err) {
      return { code: (err as { code?: string }).code, message: (err as Error).message };
    }
    throw new Error('expected the request to be refused');
  }

  const page = () => requester.request(Topics.InvoicingAccountingPage, {});
  const laterPage = (list: 'unassigned' | 'ignored', after: string, limit?: number) =>
    requester.request(Topics.InvoicingAccountingInvoices, { list, after, limit });
  /** Every line of one of the page's lists: its first page, then each later page (of `limit`) after it. */
  async function wholeList(list: 'unassigned' | 'ignored', limit?: number) {
    const first = await page();
    const lines = [...(list === 'unassigned' ? first.invoices : first.ignored)];
    let next = list === 'unassigned' ? first.invoicesNext : first.ignoredNext;
    while (next) {
      const more = await laterPage(list, next, limit);
      lines.push(...more.invoices);
      next = more.next;
    }
    return lines;
  }
  const stockData = (s: Stock) =>
    requester.request(Topics.InvoicingStockInvoices, { combinedTicker: s.combinedTicker });
  const counts = async () =>
    (
      await db.query(`SELECT (SELECT count(*) FROM invoicing.invoices)::int AS invoices,
                             (SELECT count(*) FROM invoicing.assignments)::int AS assignments,
                             (SELECT count(*) FROM invoicing.stock_billing)::int AS billing`)
    )[0] as { invoices: number; assignments: number; billing: number };

  beforeAll(async () => {
    await dropSchema('invoicing');
    standIn = await startAccountingStandIn({ port: 0, today });
    app = await startInvoicingService({
      ...serviceTestEnv('invoicing'),
      ACCOUNTING_BASE_URL: standIn.apiUrl,
      ACCOUNTING_TOKEN_URL: `${standIn.url}/connect/token`,
      ACCOUNTING_APP_URL: standIn.url,
      ACCOUNTING_CLIENT_ID: DEMO_ACCOUNTING_CLIENT.clientId,
      ACCOUNTING_CLIENT_SECRET: DEMO_ACCOUNTING_CLIENT.clientSecret,
      ACCOUNTING_TENANT_ID: DEMO_ACCOUNTING_CLIENT.tenantId,
      // The tests sync when they mean to; the job's first run at start is the only scheduled one.
      ACCOUNTING_SYNC_INTERVAL_MS: String(3_600_000),
      ACCOUNTING_MAX_RETRY_AFTER_MS: '3000',
    });
    db = app.get(DataSource);
    sync = app.get(AccountingSync);
    const projection = app.get(StockProjectionService);
    for (const s of [bhp, vod, wes, fresh, archived]) await projection.receive(s);
    requester = await createTestRequester(
      [
        Topics.InvoicingPing,
        Topics.InvoicingDashboard,
        Topics.InvoicingStockInvoices,
        Topics.InvoicingSaveStockInvoices,
        Topics.InvoicingAccountingPage,
        Topics.InvoicingAccountingInvoices,
        Topics.InvoicingRefresh,
        Topics.InvoicingAssign,
        Topics.InvoicingCreateContact,
        Topics.InvoicingCreateRepeatingInvoice,
        Topics.InvoicingReminderEmail,
        Topics.InvoicingInvoicePdf,
      ],
      30_000,
    );
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
    await standIn?.close();
  });

  it('answers its ping through Kafka and reports healthy', async () => {
    expect((await requester.request(Topics.InvoicingPing, {})).service).toBe('invoicing');
    const { port } = app.getHttpServer().address();
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  it("'Refresh Accounting' reads every invoice and repeating invoice; the page lists what no stock has", async () => {
    const result = await requester.request(Topics.InvoicingRefresh, { actor: admin });
    const live = standIn.invoices().filter((i) => ['SUBMITTED', 'AUTHORISED', 'PAID'].includes(i.Status));
    const { invoices } = await counts();
    expect(invoices).toBe(standIn.invoices().length);
    // Unassigned: live invoices whose reference matches no stock (Wesfarmers, Woolworths, Pilbara's blank one).
    const unassigned = live.filter((i) => !['BHP-2023-001', 'VOD-UK-17'].includes(i.Reference));
    expect(result.invoices.map((i) => i.invoiceID).sort()).toEqual(unassigned.map((i) => i.InvoiceID).sort());
    expect(
      result.invoices.every((i) =>
        i.url?.startsWith(`${standIn.url}/AccountsReceivable/View.aspx?InvoiceID=`),
      ),
    ).toBe(true);
    expect(result.ignored).toEqual([]);
    // Woolworths' schedule matches no stock; BHP's and Vodafone's match theirs.
    expect(result.repeatingInvoices).toHaveLength(1);
    expect(result.repeatingInvoices[0].text).toMatch(
      /^WOW-2024-003 - Woolworths Group Limited: \$1,000\.00 \+ GST every month/,
    );
    // The select: stocks with an API key, not archived, labelled ticker:exchange + website + company name.
    const wesOption = result.stocks.find((s) => s.ticker === wes.combinedTicker);
    expect(wesOption?.label).toBe(`${wes.combinedTicker} wesfarmers.example Wesfarmers`);
    expect(result.stocks.some((s) => s.ticker === archived.combinedTicker)).toBe(false);
    expect(result.syncedAt).not.toBeNull();
  });

  it('matches by accounting reference (case and blanks aside) and fills the dashboards, overdue after 90 days', async () => {
    const { stocks } = await requester.request(Topics.InvoicingDashboard, {
      stockIds: [bhp.id, vod.id, wes.id],
      range: { startDate: `${today.slice(0, 8)}01`, endDate: today },
    });
    // BHP: this month's invoice of its monthly schedule, unpaid and not late; the schedule is its repeat.
    const bhpInvoices = standIn
      .invoices()
      .filter((i) => i.Reference === 'BHP-2023-001' && i.Status !== 'VOIDED');
    const newest = bhpInvoices.at(-1)!;
    expect(stocks[bhp.id].invoice).toMatchObject({
      invoiceId: newest.InvoiceID,
      invoiceNumber: newest.InvoiceNumber,
      totalCents: Math.round(newest.Total * 100),
      unpaid: true,
      overdue: false,
    });
    expect(stocks[bhp.id].repeatingInvoice).toMatchObject({
      amountCents: 150_000,
      url: expect.stringContaining('RepeatTransactions'),
    });
    // Vodafone's newest is its yearly invoice of 91 days ago, unpaid: overdue.
    expect(stocks[vod.id].invoice).toMatchObject({ unpaid: true, overdue: true, daysLate: 91 });
    expect(stocks[vod.id].repeatingInvoice?.nextScheduledDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(stocks[wes.id]).toEqual({ invoice: null, repeatingInvoice: null });

    // The 89-day invoice of BHP is unpaid but not overdue; the stock's invoice list has it, newest first.
    const data = await stockData(bhp);
    const eightyNine = data.invoices.find((i) => i.date === isoDay(Date.parse(today) - 89 * DAY_MS));
    expect(eightyNine).toMatchObject({ unpaid: true, overdue: false, daysLate: 89, total: 2200 });
    expect(data.invoices.map((i) => i.date)).toEqual([...data.invoices.map((i) => i.date)].sort().reverse());
    expect(data.invoices.some((i) => i.status === 'VOIDED')).toBe(false);
    expect(data.repeatingInvoiceId).toBe(stocks[bhp.id].repeatingInvoice?.repeatingInvoiceId);
    expect(data.defaultRepeatingAmount).toBe(1800);
  });

  it('assigns invoices to a stock or to the ignored list, unsets them, and refuses unknown ids and tickers whole', async () => {
    const before = await page();
    const wesInvoices = before.invoices.filter((i) => i.text.includes('WES-2021-007'));
    const pilbara = before.invoices.find((i) => i.text.includes('no reference'))!;
    expect(wesInvoices).toHaveLength(2);

    const unknownId = await refusal(() =>
      requester.request(Topics.InvoicingAssign, {
        actor: admin,
        items: [
          { invoiceId: wesInvoices[0].invoiceID, ticker: wes.combinedTicker },
          { invoiceId: 'no-such-invoice' },
        ],
      }),
    );
    expect(unknownId).toEqual({ code: 'BAD_REQUEST', message: 'No invoice has the id no-such-invoice' });
    const unknownTicker = await refusal(() =>
      requester.request(Topics.InvoicingAssign, {
        actor: admin,
        items: [
          { invoiceId: pilbara.invoiceID, ignore: true },
          { invoiceId: wesInvoices[0].invoiceID, ticker: 'NOPE:ASX' },
        ],
      }),
    );
    expect(unknownTicker).toEqual({ code: 'BAD_REQUEST', message: 'No stock has the ticker NOPE:ASX' });
    expect((await counts()).assignments).toBe(0);

    const after = await requester.request(Topics.InvoicingAssign, {
      actor: admin,
      items: [
        ...wesInvoices.map((i) => ({ invoiceId: i.invoiceID, ticker: wes.combinedTicker.toLowerCase() })),
        { invoiceId: pilbara.invoiceID, ignore: true },
      ],
    });
    expect(after.invoices.some((i) => i.text.includes('WES-2021-007'))).toBe(false);
    expect(after.ignored.map((i) => i.invoiceID)).toEqual([pilbara.invoiceID]);
    const wesData = await stockData(wes);
    expect(wesData.invoices.map((i) => i.invoiceID).sort()).toEqual(
      wesInvoices.map((i) => i.invoiceID).sort(),
    );
    const { stocks } = await requester.request(Topics.InvoicingDashboard, { stockIds: [wes.id] });
    expect(stocks[wes.id].invoice).toMatchObject({ unpaid: false, status: 'PAID' });

    // The blank choice removes the ignore.
    const unset = await requester.request(Topics.InvoicingAssign, {
      actor: admin,
      items: [{ invoiceId: pilbara.invoiceID }],
    });
    expect(unset.ignored).toEqual([]);
    expect(unset.invoices.some((i) => i.invoiceID === pilbara.invoiceID)).toBe(true);
  });

  it('a scheduled sync with nothing changed makes one request; a payment arrives by If-Modified-Since', async () => {
    const quiet = await sync.sync({ full: false });
    expect(quiet).toMatchObject({ pages: 1, invoices: 0, repeatingInvoices: null, requests: 1 });

    const bhpUnpaid = standIn
      .invoices()
      .filter((i) => i.Reference === 'BHP-2023-001' && i.Status === 'AUTHORISED');
    standIn.pay(bhpUnpaid.at(-1)!.InvoiceID);
    const changed = await sync.sync({ full: false });
    expect(changed).toMatchObject({ pages: 1, invoices: 1, requests: 1 });
    const { stocks } = await requester.request(Topics.InvoicingDashboard, { stockIds: [bhp.id] });
    expect(stocks[bhp.id].invoice).toMatchObject({
      invoiceId: bhpUnpaid.at(-1)!.InvoiceID,
      unpaid: false,
      status: 'PAID',
    });

    // A schedule that ran raises an invoice with a RepeatingInvoiceID: the schedules are read again.
    const wowSchedule = standIn.repeatingInvoices().find((r) => r.Reference === 'WOW-2024-003')!;
    standIn.runRepeatingInvoice(wowSchedule.RepeatingInvoiceID);
    const ran = await sync.sync({ full: false });
    expect(ran).toMatchObject({ pages: 1, invoices: 1, repeatingInvoices: 3, requests: 2 });
    const raised = standIn
      .invoices()
      .filter((i) => i.RepeatingInvoiceID === wowSchedule.RepeatingInvoiceID)
      .at(-1)!;
    const [stored] = await db.query(`SELECT status FROM invoicing.invoices WHERE invoice_id = $1`, [
      raised.InvoiceID,
    ]);
    expect(stored).toEqual({ status: 'AUTHORISED' });
  });

  it('reads invoices in pages of 100 and waits out 429s as Retry-After says', async () => {
    standIn.seedInvoices({ count: 250, reference: `PAGED-${run}` });
    standIn.faults.set({ kind: 'fail', route: 'invoices', status: 429, retryAfterSeconds: 1, times: 1 });
    const started = Date.now();
    const result = await sync.sync({ full: false });
    // 250 new ones: three pages, one of them retried.
    expect(result).toMatchObject({ pages: 3, invoices: 250, requests: 3 });
    expect(standIn.requests('invoices')).toBeGreaterThanOrEqual(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((await wholeList('unassigned')).filter((i) => i.text.includes(`PAGED-${run}`))).toHaveLength(250);
  });

  it("pages the unassigned invoices oldest first, each page after the last one's invoice: none skipped or repeated", async () => {
    const whole = await wholeList('unassigned');
    const ids = whole.map((i) => i.invoiceID);
    expect(whole.length).toBeGreaterThan(ACCOUNTING_INVOICE_PAGE_SIZE + 50);
    expect(new Set(ids).size).toBe(ids.length);
    // Oldest first, an invoice number apart from its date, as the database orders them.
    const ordered = await db.query(
      `SELECT invoice_id FROM invoicing.invoices WHERE invoice_id = ANY($1::text[])
        ORDER BY date, invoice_number, invoice_id`,
      [ids],
    );
    expect(ordered.map((r: { invoice_id: string }) => r.invoice_id)).toEqual(ids);
    // The page carries the first of them and where the rest continue.
    const first = await page();
    expect(first.invoices).toEqual(whole.slice(0, ACCOUNTING_INVOICE_PAGE_SIZE));
    expect(first.invoicesNext).toBe(ids[ACCOUNTING_INVOICE_PAGE_SIZE - 1]);
    // Smaller pages walk the same list; the last page says none follows.
    expect(await wholeList('unassigned', 37)).toEqual(whole);
    expect((await laterPage('unassigned', ids.at(-1)!)).invoices).toEqual([]);
    expect(await laterPage('unassigned', ids.at(-2)!)).toEqual({ invoices: [whole.at(-1)], next: null });

    // A cursor assigned since the page was read: the next page goes on after where it stood.
    const cursor = whole[99];
    await requester.request(Topics.InvoicingAssign, {
      actor: admin,
      items: [{ invoiceId: cursor.invoiceID, ticker: wes.combinedTicker }],
    });
    try {
      expect((await laterPage('unassigned', cursor.invoiceID, 50)).invoices).toEqual(whole.slice(100, 150));
      expect(await wholeList('unassigned')).toEqual(whole.filter((i) => i !== cursor));
    } finally {
      await requester.request(Topics.InvoicingAssign, {
        actor: admin,
        items: [{ invoiceId: cursor.invoiceID }],
      });
    }

    // The ignored list pages the same way.
    const set = whole.slice(0, 3).map((i) => ({ invoiceId: i.invoiceID, ignore: true }));
    await requester.request(Topics.InvoicingAssign, { actor: admin, items: set });
    try {
      expect(await wholeList('ignored', 1)).toEqual(whole.slice(0, 3));
    } finally {
      await requester.request(Topics.InvoicingAssign, {
        actor: admin,
        items: set.map(({ invoiceId }) => ({ invoiceId })),
      });
    }

    // A cursor naming no invoice the accounting system has.
    expect(await refusal(() => laterPage('unassigned', 'no-such-invoice'))).toEqual({
      code: 'NOT_FOUND',
      message: 'The invoices changed since this list was read: reload the page to see them',
    });
    expect(await wholeList('unassigned')).toEqual(whole);
  });

  it('an accounting outage is SERVICE_UNAVAILABLE with its message and changes nothing', async () => {
    const before = await counts();
    standIn.faults.set({ kind: 'fail', route: 'invoices', status: 503 });
    try {
      const outage = await refusal(() => requester.request(Topics.InvoicingRefresh, { actor: admin }));
      expect(outage.code).toBe('SERVICE_UNAVAILABLE');
      expect(outage.message).toMatch(/^The accounting system answered 503/);
    } finally {
      standIn.faults.clear();
    }
    expect(await counts()).toEqual(before);
    const [state] = await db.query(`SELECT last_error FROM invoicing.sync_state`);
    expect(state.last_error).toMatch(/503/);
    await sync.sync({ full: false });
    const [after] = await db.query(`SELECT last_error FROM invoicing.sync_state`);
    expect(after.last_error).toBeNull();
  });

  it('creates the contact, refuses a duplicate name with the API message, then a yearly repeating invoice with GST', async () => {
    const noContact = await refusal(() =>
      requester.request(Topics.InvoicingCreateRepeatingInvoice, {
        actor: admin,
        stockId: fresh.id,
        amountCents: 180_000,
      }),
    );
    expect(noContact).toEqual({
      code: 'BAD_REQUEST',
      message: `${fresh.combinedTicker} has no contact in the accounting system yet: create the contact first`,
    });

    const { contactId } = await requester.request(Topics.InvoicingCreateContact, {
      actor: admin,
      stockId: fresh.id,
    });
    const contact = standIn.contacts().find((c) => c.ContactID === contactId)!;
    expect(contact).toMatchObject({ Name: fresh.companyName, EmailAddress: 'billing@newlisting.example' });
    // Refused as a bad request; the accounting system's own words stay in the log, under the reference.
    const logs = captureLogs();
    const duplicate = await refusal(() =>
      requester.request(Topics.InvoicingCreateContact, { actor: admin, stockId: fresh.id }),
    ).finally(() => logs.stop());
    expect(duplicate).toEqual({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^The accounting system refused the request \(reference [0-9a-f]{8}\)$/),
    });
    expect(loggedUnderReference(logs, duplicate.message).vendorMessage).toBe(
      `The contact name ${fresh.companyName} is already assigned to another contact. The contact name must be unique across all active contacts.`,
    );

    const { repeatingInvoice } = await requester.request(Topics.InvoicingCreateRepeatingInvoice, {
      actor: admin,
      stockId: fresh.id,
      amountCents: 180_000,
    });
    expect(repeatingInvoice).toMatchObject({
      reference: `NEW-${run}`,
      totalCents: 198_000,
      total: 1980,
      status: 'AUTHORISED',
    });
    expect(repeatingInvoice.schedule).toMatchObject({ period: 12, unit: 'MONTHLY' });
    const created = standIn.repeatingInvoices().find((r) => r.RepeatingInvoiceID === repeatingInvoice.id)!;
    expect(created.LineAmountTypes).toBe('Exclusive');
    expect(created.LineItems[0]).toMatchObject({ UnitAmount: 1800, TaxType: 'OUTPUT' });
    const data = await stockData(fresh);
    expect(data).toMatchObject({
      contactId,
      repeatingInvoiceId: repeatingInvoice.id,
      reference: `NEW-${run}`,
    });
  });

  it("saves a stock's repeating invoice choice and refuses an unknown one", async () => {
    const unknown = await refusal(() =>
      requester.request(Topics.InvoicingSaveStockInvoices, {
        actor: admin,
        combinedTicker: wes.combinedTicker,
        repeatingInvoiceId: 'no-such-schedule',
      }),
    );
    expect(unknown).toEqual({
      code: 'BAD_REQUEST',
      message: 'No repeating invoice has the id no-such-schedule',
    });
    const options = (await stockData(wes)).repeatingInvoices;
    const wow = options.find((r) => r.reference === 'WOW-2024-003')!;
    const saved = await requester.request(Topics.InvoicingSaveStockInvoices, {
      actor: admin,
      combinedTicker: wes.combinedTicker,
      repeatingInvoiceId: wow.id,
    });
    expect(saved.repeatingInvoiceId).toBe(wow.id);
    expect((await page()).repeatingInvoices).toEqual([]);
    // Left out, the invoices assigned by hand stay.
    expect(saved.invoices.filter((i) => i.reference === 'WES-2021-007')).toHaveLength(2);
    const notFound = await refusal(() => stockData(stock('ZZZ')));
    expect(notFound.code).toBe('NOT_FOUND');
  });

  it('writes a reminder mail of the unpaid invoices, escaped', async () => {
    const mail = await requester.request(Topics.InvoicingReminderEmail, {
      combinedTicker: vod.combinedTicker,
    });
    const unpaid = standIn.invoices().filter((i) => i.Reference === 'VOD-UK-17' && i.AmountDue > 0);
    expect(mail.unpaidCount).toBe(unpaid.length);
    for (const i of unpaid) expect(mail.html).toContain(i.InvoiceNumber);
    expect(mail.html).toContain('Vodafone &lt;Group&gt; &amp; Co');
    expect(mail.html).not.toContain('<Group>');
    expect(mail.html).toContain('91 days (overdue)');
    expect(mail.subject).toBe(
      `Payment reminder: ${unpaid.length} unpaid invoice${unpaid.length === 1 ? '' : 's'} for Vodafone <Group> & Co`,
    );
  });

  it("gives a stock's invoice PDF and refuses another stock's invoice", async () => {
    const own = (await stockData(vod)).invoices[0];
    const { pdf, fileName } = await requester.request(Topics.InvoicingInvoicePdf, {
      combinedTicker: vod.combinedTicker,
      invoiceId: own.invoiceID,
    });
    expect(Buffer.from(pdf, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fileName).toBe(`${own.invoiceNumber}.pdf`);
    const other = await refusal(() =>
      requester.request(Topics.InvoicingInvoicePdf, {
        combinedTicker: bhp.combinedTicker,
        invoiceId: own.invoiceID,
      }),
    );
    expect(other).toEqual({
      code: 'NOT_FOUND',
      message: `${bhp.combinedTicker} has no invoice with the id ${own.invoiceID}`,
    });
  });

  it("reads only the invoice of the stock whose role the gateway checked: another stock's PDF is not found", async () => {
    const theirs = (await stockData(bhp)).invoices[0];
    const own = (await stockData(vod)).invoices[0];
    expect(theirs).toBeDefined();
    // The gateway checked a client's Invoicing role on VOD, but the ticker the service reads names BHP (a
    // stale lookup, a ticker renamed meanwhile): BHP's invoice is not given for a role on VOD.
    await expectAppError(
      requester.request(Topics.InvoicingInvoicePdf, {
        combinedTicker: bhp.combinedTicker,
        invoiceId: theirs.invoiceID,
        checkedStockId: vod.id,
      }),
      'NOT_FOUND',
      `${bhp.combinedTicker} has no invoice with the id ${theirs.invoiceID}`,
    );
    const { fileName } = await requester.request(Topics.InvoicingInvoicePdf, {
      combinedTicker: vod.combinedTicker,
      invoiceId: own.invoiceID,
      checkedStockId: vod.id,
    });
    expect(fileName).toBe(`${own.invoiceNumber}.pdf`);
  });

  it("re-checks the signed actor's roles on every change: a signed actor without the role is refused, nothing changes", async () => {
    // Signed with the gateway's secret, but without the role the gateway's route guard asks for.
    const client = actor({ username: 'invoice-client', stockRoles: { [vod.id]: ['Invoicing'] } });
    const totals = actor({ username: 'invoice-totals', roles: ['InvoiceTotal'] });
    const before = { counts: await counts(), vod: await stockData(vod), page: await page() };
    await expectAppError(
      requester.request(Topics.InvoicingRefresh, { actor: totals }),
      'FORBIDDEN',
      'You need the Admin role to refresh the accounting data',
    );
    await expectAppError(
      requester.request(Topics.InvoicingAssign, { actor: totals, items: [] }),
      'FORBIDDEN',
      'You need the Admin role to assign invoices',
    );
    await expectAppError(
      requester.request(Topics.InvoicingSaveStockInvoices, {
        actor: client,
        combinedTicker: vod.combinedTicker,
        invoices: [],
      }),
      'FORBIDDEN',
      "You need the InvoiceTotal role to save a stock's invoices",
    );
    await expectAppError(
      requester.request(Topics.InvoicingCreateContact, { actor: client, stockId: fresh.id }),
      'FORBIDDEN',
      'You need the InvoiceTotal role to create an accounting contact',
    );
    await expectAppError(
      requester.request(Topics.InvoicingCreateRepeatingInvoice, {
        actor: client,
        stockId: fresh.id,
        amountCents: 100_00,
      }),
      'FORBIDDEN',
      'You need the InvoiceTotal role to create a repeating invoice',
    );
    expect({ counts: await counts(), vod: await stockData(vod), page: await page() }).toEqual(before);
  });
});
