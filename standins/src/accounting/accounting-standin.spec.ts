import { invoiceStanding } from '@irp/proto';
import { PDFDocument } from 'pdf-lib';
import {
  AccountingStandIn,
  AccountingStandInOptions,
  DEMO_ACCOUNTING_CLIENT,
  DEMO_STOCK_REFERENCES,
  InvoiceView,
  RepeatingInvoiceView,
  startAccountingStandIn,
} from './accounting-standin';

const TODAY = '2025-06-30';
const START = Date.parse('2025-06-30T10:00:00Z');

interface InvoicesPage {
  pagination?: { page: number; pageSize: number; pageCount: number; itemCount: number };
  Invoices: InvoiceView[];
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const msOf = (xeroDate: string) => Number(/^\/Date\((\d+)\+0000\)\/$/.exec(xeroDate)?.[1]);

describe('accounting stand-in', () => {
  let standIn: AccountingStandIn;
  let clockMs = START;

  const start = async (options: AccountingStandInOptions = {}) => {
    clockMs = START;
    standIn = await startAccountingStandIn({ today: TODAY, now: () => new Date(clockMs), ...options });
    return standIn;
  };
  afterEach(() => standIn?.close());

  const requestToken = (authorization: string, body = 'grant_type=client_credentials') =>
    fetch(`${standIn.url}/connect/token`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  const token = async () => {
    const response = await requestToken(
      basic(DEMO_ACCOUNTING_CLIENT.clientId, DEMO_ACCOUNTING_CLIENT.clientSecret),
    );
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const api = (accessToken: string, path: string, init: RequestInit = {}) =>
    fetch(`${standIn.apiUrl}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        'content-type': 'application/json',
        ...(init.headers as Record<string, string> | undefined),
      },
    });
  const control = (path: string, body: unknown) =>
    fetch(`${standIn.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('issues client-credentials tokens, refuses a wrong client, and answers 401 once a token expires', async () => {
    await start({ tokenTtlSeconds: 60 });
    const wrong = await requestToken(basic(DEMO_ACCOUNTING_CLIENT.clientId, 'not-the-secret'));
    expect(wrong.status).toBe(401);
    await expect(wrong.json()).resolves.toEqual({ error: 'invalid_client' });
    expect((await requestToken('')).status).toBe(401);
    const grant = await requestToken(
      basic(DEMO_ACCOUNTING_CLIENT.clientId, DEMO_ACCOUNTING_CLIENT.clientSecret),
      'grant_type=authorization_code',
    );
    expect(grant.status).toBe(400);
    await expect(grant.json()).resolves.toEqual({ error: 'unsupported_grant_type' });

    const issued = await requestToken(
      basic(DEMO_ACCOUNTING_CLIENT.clientId, DEMO_ACCOUNTING_CLIENT.clientSecret),
    );
    expect(issued.status).toBe(200);
    const body = (await issued.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(body).toMatchObject({ access_token: expect.any(String), expires_in: 60, token_type: 'Bearer' });

    expect((await api(body.access_token, '/Invoices?page=1')).status).toBe(200);
    const anonymous = await fetch(`${standIn.apiUrl}/Invoices`);
    expect(anonymous.status).toBe(401);
    await expect(anonymous.json()).resolves.toEqual({
      Title: 'Unauthorized',
      Status: 401,
      Detail: 'AuthenticationUnsuccessful',
    });
    expect((await api('made-up-token', '/Invoices')).status).toBe(401);
    expect(
      (await api(body.access_token, '/Invoices', { headers: { 'xero-tenant-id': 'another-tenant' } })).status,
    ).toBe(403);

    clockMs += 59_000;
    expect((await api(body.access_token, '/Invoices?page=1')).status).toBe(200);
    clockMs += 1000;
    const expired = await api(body.access_token, '/Invoices?page=1');
    expect(expired.status).toBe(401);
    await expect(expired.json()).resolves.toMatchObject({
      Title: 'Unauthorized',
      Status: 401,
      Detail: expect.stringMatching(/^TokenExpired: /),
    });
    expect((await api(await token(), '/Invoices?page=1')).status).toBe(200);
  });

  it('expires the tokens issued so far on /standin/tokens/expire, the clock unmoved; new ones work', async () => {
    await start();
    const before = await token();
    expect((await api(before, '/Invoices?page=1')).status).toBe(200);
    expect((await control('/standin/tokens/expire', {})).status).toBe(200);
    const expired = await api(before, '/Invoices?page=1');
    expect(expired.status).toBe(401);
    await expect(expired.json()).resolves.toMatchObject({ Detail: expect.stringMatching(/^TokenExpired: /) });
    expect(standIn.now().getTime()).toBe(START);
    expect((await api(await token(), '/Invoices?page=1')).status).toBe(200);
  });

  it('gives 30-minute tokens by default', async () => {
    await start();
    const issued = await requestToken(
      basic(DEMO_ACCOUNTING_CLIENT.clientId, DEMO_ACCOUNTING_CLIENT.clientSecret),
    );
    await expect(issued.json()).resolves.toMatchObject({ expires_in: 1800, token_type: 'Bearer' });
  });

  it('pages 250 invoices by 100, ordered by UpdatedDateUTC then InvoiceID', async () => {
    await start({ demo: false });
    const first = await control('/standin/invoices', { count: 150 });
    expect(first.status).toBe(201);
    await expect(first.json()).resolves.toEqual({
      created: 150,
      total: 150,
      first: 'INV-0001',
      last: 'INV-0150',
    });
    clockMs += 1000;
    expect((await control('/standin/invoices', { count: 100 })).status).toBe(201);
    const accessToken = await token();

    const pages: InvoicesPage[] = [];
    for (let page = 1; page <= 4; page++)
      pages.push((await (await api(accessToken, `/Invoices?page=${page}`)).json()) as InvoicesPage);
    expect(pages.map((p) => p.Invoices.length)).toEqual([100, 100, 50, 0]);
    expect(pages[0].pagination).toEqual({ page: 1, pageSize: 100, pageCount: 3, itemCount: 250 });
    const all = pages.flatMap((p) => p.Invoices);
    expect(new Set(all.map((i) => i.InvoiceID)).size).toBe(250);
    const keys = all.map((i) => [msOf(i.UpdatedDateUTC), i.InvoiceID] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
    // The first 150 were changed a second before the other 100: page 2 holds the end of one and the start of the other.
    expect(all.slice(0, 150).every((i) => msOf(i.UpdatedDateUTC) === START)).toBe(true);
    expect(all.slice(150).every((i) => msOf(i.UpdatedDateUTC) === START + 1000)).toBe(true);
    expect(all[0]).toMatchObject({ Type: 'ACCREC', Contact: { ContactID: expect.any(String) } });
    expect(all.every((i) => /^SYN-\d{5}$/.test(i.Reference) && i.LineItems?.length === 1)).toBe(true);
    expect(all.map((i) => i.Date).every((d) => /^\/Date\(\d+\+0000\)\/$/.test(d))).toBe(true);

    // Without a page, every invoice at once, without lines (Xero's summary).
    const unpaged = (await (await api(accessToken, '/Invoices')).json()) as InvoicesPage;
    expect(unpaged.Invoices).toHaveLength(250);
    expect(unpaged.Invoices[0].LineItems).toBeUndefined();
  });

  it('answers only the invoices updated after If-Modified-Since', async () => {
    await start({ demo: false });
    standIn.seedInvoices({ count: 30 });
    clockMs += 10 * 60_000;
    standIn.seedInvoices({ count: 20 });
    const paid = standIn.pay('INV-0005');
    expect(paid).toMatchObject({ Status: 'PAID', AmountDue: 0 });
    const accessToken = await token();
    const since = async (value: string) => {
      const response = await api(accessToken, '/Invoices?page=1', {
        headers: { 'If-Modified-Since': value },
      });
      return {
        status: response.status,
        numbers: ((await response.json()) as InvoicesPage).Invoices?.map((i) => i.InvoiceNumber),
      };
    };

    const fiveMinutesIn = new Date(START + 5 * 60_000);
    const changed = await since(fiveMinutesIn.toUTCString());
    expect(changed.status).toBe(200);
    expect(changed.numbers).toHaveLength(21);
    expect(changed.numbers).toContain('INV-0005');
    expect(changed.numbers).not.toContain('INV-0004');
    expect(changed.numbers).toContain('INV-0050');
    // Xero's own form: ISO without a zone, read as UTC.
    expect((await since(fiveMinutesIn.toISOString().slice(0, 19))).numbers).toEqual(changed.numbers);
    expect((await since(new Date(START).toUTCString())).numbers).toHaveLength(21);
    expect((await since(new Date(START - 1000).toUTCString())).numbers).toHaveLength(50);
    expect((await since(new Date(clockMs).toUTCString())).numbers).toEqual([]);
    expect((await since('last tuesday')).status).toBe(400);
  });

  it('refuses a contact whose name is taken, in any case, with Xero’s validation error', async () => {
    await start();
    const accessToken = await token();
    const put = (contacts: unknown[]) =>
      api(accessToken, '/Contacts', { method: 'PUT', body: JSON.stringify({ Contacts: contacts }) });

    const duplicate = await put([{ Name: 'bhp group LIMITED', EmailAddress: 'ap@bhp.example.com' }]);
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toEqual({
      ErrorNumber: 10,
      Type: 'ValidationException',
      Message: 'A validation exception occurred',
      Elements: [
        {
          Name: 'bhp group LIMITED',
          EmailAddress: 'ap@bhp.example.com',
          ValidationErrors: [
            {
              Message:
                'The contact name bhp group LIMITED is already assigned to another contact. The contact name must be unique across all active contacts.',
            },
          ],
        },
      ],
    });

    const created = await put([{ Name: 'Fortescue Ltd', EmailAddress: 'accounts@fmg.example.com' }]);
    expect(created.status).toBe(200);
    const contact = ((await created.json()) as { Contacts: Array<{ ContactID: string; Name: string }> })
      .Contacts[0];
    expect(contact).toMatchObject({ Name: 'Fortescue Ltd', ContactStatus: 'ACTIVE' });
    expect(contact.ContactID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(standIn.contacts().map((c) => c.Name)).toContain('Fortescue Ltd');
    expect((await put([{ Name: 'FORTESCUE LTD' }])).status).toBe(400);
    expect((await put([{ Name: 'Another Ltd', EmailAddress: 'not an address' }])).status).toBe(400);
    expect((await put([{ EmailAddress: 'a@b.example.com' }])).status).toBe(400);
  });

  it('creates a repeating invoice whose Total is its lines plus 10% GST per line, in cents', async () => {
    await start();
    const accessToken = await token();
    const contactId = standIn.contacts()[0].ContactID;
    const held = standIn.repeatingInvoices().length;
    const element = (overrides: Record<string, unknown> = {}) => ({
      Type: 'ACCREC',
      Contact: { ContactID: contactId },
      Reference: 'BHP-2023-001',
      Schedule: {
        Period: 1,
        Unit: 'MONTHLY',
        DueDate: 14,
        DueDateType: 'DAYSAFTERBILLDATE',
        StartDate: '2025-07-01',
      },
      Status: 'AUTHORISED',
      LineAmountTypes: 'Exclusive',
      LineItems: [
        // 2.5 x 19.99 = 49.975 -> 49.98 (a float product gives 49.97), GST 4.998 -> 5.00
        {
          Description: 'Widget hosting',
          Quantity: 2.5,
          UnitAmount: 19.99,
          AccountCode: '200',
          TaxType: 'OUTPUT',
        },
        // 3 x 33.33 = 99.99, GST 9.999 -> 10.00
        {
          Description: 'Email sending',
          Quantity: 3,
          UnitAmount: 33.33,
          AccountCode: '200',
          TaxType: 'OUTPUT',
        },
        // GST 0.005 -> 0.01
        { Description: 'Rounding', Quantity: 1, UnitAmount: 0.05, AccountCode: '200', TaxType: 'OUTPUT' },
      ],
      ...overrides,
    });
    const put = (elements: unknown[]) =>
      api(accessToken, '/RepeatingInvoices', {
        method: 'PUT',
        body: JSON.stringify({ RepeatingInvoices: elements }),
      });

    const response = await put([element()]);
    expect(response.status).toBe(200);
    const [created] = ((await response.json()) as { RepeatingInvoices: RepeatingInvoiceView[] })
      .RepeatingInvoices;
    expect(created).toMatchObject({
      SubTotal: 150.02,
      TotalTax: 15.01,
      Total: 165.03,
      Reference: 'BHP-2023-001',
      Status: 'AUTHORISED',
      Schedule: {
        Period: 1,
        Unit: 'MONTHLY',
        StartDate: `/Date(${Date.UTC(2025, 6, 1)}+0000)/`,
        NextScheduledDate: `/Date(${Date.UTC(2025, 6, 1)}+0000)/`,
      },
    });
    expect(created.LineItems.map((l) => [l.LineAmount, l.TaxAmount])).toEqual([
      [49.98, 5],
      [99.99, 10],
      [0.05, 0.01],
    ]);
    const listed = (await (await api(accessToken, '/RepeatingInvoices')).json()) as {
      RepeatingInvoices: RepeatingInvoiceView[];
    };
    expect(
      listed.RepeatingInvoices.find((r) => r.RepeatingInvoiceID === created.RepeatingInvoiceID),
    ).toMatchObject({ Total: 165.03 });

    const unknownContact = await put([
      element({ Contact: { ContactID: '00000000-0000-4000-8000-000000000000' } }),
    ]);
    expect(unknownContact.status).toBe(400);
    expect(await unknownContact.json()).toMatchObject({
      ErrorNumber: 10,
      Type: 'ValidationException',
      Elements: [
        { ValidationErrors: [{ Message: expect.stringContaining('00000000-0000-4000-8000-000000000000') }] },
      ],
    });
    const noAccount = await put([
      element({ LineItems: [{ Description: 'x', Quantity: 1, UnitAmount: 10, TaxType: 'OUTPUT' }] }),
    ]);
    expect(noAccount.status).toBe(400);
    expect(JSON.stringify(await noAccount.json())).toContain('LineItems.0.AccountCode');
    expect((await put([element({ Schedule: { Period: 1, Unit: 'DAILY' } })])).status).toBe(400);
    const notJson = await api(accessToken, '/RepeatingInvoices', { method: 'PUT', body: '{' });
    expect(notJson.status).toBe(400);
    await expect(notJson.json()).resolves.toMatchObject({
      ErrorNumber: 14,
      Type: 'PostDataInvalidException',
    });
    expect(standIn.repeatingInvoices()).toHaveLength(held + 1);
  });

  it('serves an invoice as JSON or as a PDF naming its number; 404 for one it does not hold', async () => {
    await start();
    const accessToken = await token();
    const invoice = standIn.invoices()[3];
    const json = await api(accessToken, `/Invoices/${invoice.InvoiceID}`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as InvoicesPage).Invoices).toEqual([invoice]);

    for (const id of [invoice.InvoiceID, invoice.InvoiceNumber]) {
      const pdf = await api(accessToken, `/Invoices/${id}`, { headers: { accept: 'application/pdf' } });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.toString('latin1')).toContain(`Invoice number: ${invoice.InvoiceNumber}`);
      expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    }

    const missing = await api(accessToken, '/Invoices/00000000-0000-4000-8000-000000000000', {
      headers: { accept: 'application/pdf' },
    });
    expect(missing.status).toBe(404);
    await expect(missing.json()).resolves.toMatchObject({ Title: 'Not Found', Status: 404 });
  });

  it("serves the web app's invoice and repeating invoice pages the portal links to, escaped", async () => {
    await start();
    const invoice = standIn.invoices()[0];
    const page = await fetch(`${standIn.url}/AccountsReceivable/View.aspx?InvoiceID=${invoice.InvoiceID}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(`<h1>Invoice ${invoice.InvoiceNumber}</h1>`);
    expect(html).toContain(`$${invoice.AmountDue.toFixed(2)}`);
    const r = standIn.repeatingInvoices()[0];
    const schedule = await fetch(
      `${standIn.url}/RepeatTransactions/Edit.aspx?invoiceID=${r.RepeatingInvoiceID}`,
    );
    expect(await schedule.text()).toContain(`Repeating invoice ${r.Reference}`);
    expect((await fetch(`${standIn.url}/AccountsReceivable/View.aspx?InvoiceID=%3Cscript%3E`)).status).toBe(
      404,
    );
  });

  it('allows a tenant 60 requests a minute, then answers 429 with Retry-After until the minute has passed', async () => {
    await start({ demo: false });
    const accessToken = await token();
    for (let n = 1; n <= 60; n++) {
      const response = await api(accessToken, '/Invoices?page=1');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-minlimit-remaining')).toBe(String(60 - n));
      expect(response.headers.get('x-daylimit-remaining')).toBe(String(5000 - n));
      await response.arrayBuffer();
    }
    const limited = await api(accessToken, '/Invoices?page=1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('x-rate-limit-problem')).toBe('minute');
    expect(limited.headers.get('x-minlimit-remaining')).toBe('0');
    expect(limited.headers.get('x-daylimit-remaining')).toBe('4940');
    await expect(limited.json()).resolves.toMatchObject({ Title: 'Too Many Requests', Status: 429 });

    clockMs += 45_000;
    const later = await api(accessToken, '/Invoices?page=1');
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('15');
    clockMs += 15_000;
    const again = await api(accessToken, '/Invoices?page=1');
    expect(again.status).toBe(200);
    expect(again.headers.get('x-minlimit-remaining')).toBe('59');
    expect(again.headers.get('x-daylimit-remaining')).toBe('4939');
  });

  it('allows a tenant its requests of a day, then 429 until the oldest is a day old', async () => {
    await start({ demo: false, limits: { perDay: 3 } });
    const accessToken = await token();
    for (let n = 0; n < 3; n++) {
      expect((await api(accessToken, '/Contacts')).status).toBe(200);
      clockMs += 60_000;
    }
    const limited = await api(accessToken, '/Contacts');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-rate-limit-problem')).toBe('day');
    expect(limited.headers.get('retry-after')).toBe(String(86_400 - 180));
    clockMs += (86_400 - 180) * 1000;
    expect((await api(await token(), '/Contacts')).status).toBe(200);
  });

  it('refuses the sixth of six requests open at once (5 concurrent per tenant)', async () => {
    await start();
    const accessToken = await token();
    standIn.hold(true);
    const statuses: number[] = [];
    const calls = Array.from({ length: 6 }, () =>
      api(accessToken, '/Invoices?page=1').then(async (r) => {
        statuses.push(r.status);
        if (r.status === 429) {
          expect(r.headers.get('x-rate-limit-problem')).toBe('concurrent');
          expect(r.headers.get('retry-after')).toBe('1');
        }
        await r.arrayBuffer();
        return r.status;
      }),
    );
    // The held five never answer until released: the first answer is the sixth's refusal, given because five
    // were open then.
    expect(await Promise.race(calls)).toBe(429);
    expect(statuses).toEqual([429]);
    expect(standIn.openRequests()).toBe(5);
    standIn.hold(false);
    expect((await Promise.all(calls)).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(standIn.openRequests()).toBe(0);
    expect((await api(accessToken, '/Invoices?page=1')).status).toBe(200);
  });

  it('dates the demo from today: one unpaid invoice 91 days after its date (overdue), one at 89 days', async () => {
    for (const today of [TODAY, '2026-03-01']) {
      await start({ today });
      const now = new Date(Date.parse(`${today}T10:00:00Z`));
      const accessToken = await token();
      const { Invoices } = (await (await api(accessToken, '/Invoices')).json()) as InvoicesPage;
      const standing = Invoices.map((i) => ({
        invoice: i,
        ...invoiceStanding(
          {
            unpaid: i.AmountDue > 0 && i.Status === 'AUTHORISED',
            date: new Date(msOf(i.Date)).toISOString(),
          },
          now,
        ),
      }));
      const overdue = standing.filter((s) => s.overdue);
      expect(overdue).toHaveLength(1);
      expect(overdue[0]).toMatchObject({
        daysLate: 91,
        invoice: { Reference: DEMO_STOCK_REFERENCES.VOD, Status: 'AUTHORISED', AmountDue: 6000 },
      });
      const almost = standing.filter((s) => s.daysLate === 89);
      expect(almost).toHaveLength(1);
      expect(almost[0]).toMatchObject({ overdue: false, invoice: { Reference: DEMO_STOCK_REFERENCES.BHP } });

      // Paid and unpaid, references of the demo stocks and ones no stock has (or none).
      const references = new Set(Invoices.map((i) => i.Reference));
      expect(references).toEqual(new Set(['BHP-2023-001', 'VOD-UK-17', 'WES-2021-007', 'WOW-2024-003', '']));
      expect(new Set(Invoices.map((i) => i.Status))).toEqual(
        new Set(['PAID', 'AUTHORISED', 'VOIDED', 'DRAFT']),
      );
      const schedules = standIn
        .repeatingInvoices()
        .map((r) => [r.Reference, r.Schedule.Period, r.Schedule.Unit]);
      expect(schedules).toEqual(
        expect.arrayContaining([
          ['BHP-2023-001', 1, 'MONTHLY'],
          ['VOD-UK-17', 12, 'MONTHLY'],
        ]),
      );
      expect(overdue[0].invoice.RepeatingInvoiceID).toBe(
        standIn.repeatingInvoices().find((r) => r.Reference === 'VOD-UK-17')?.RepeatingInvoiceID,
      );
      // Nothing in the demo is changed today or later.
      expect(Invoices.every((i) => msOf(i.UpdatedDateUTC) < Date.parse(`${today}T00:00:00Z`))).toBe(true);
      await standIn.close();
    }
  });

  it('gives the same demo on every start, and reset brings it back after seeding', async () => {
    await start();
    const first = standIn.invoices();
    const other = await startAccountingStandIn({ today: TODAY, now: () => new Date(clockMs) });
    try {
      expect(other.invoices()).toEqual(first);
      expect(other.repeatingInvoices()).toEqual(standIn.repeatingInvoices());
    } finally {
      await other.close();
    }
    expect((await control('/standin/invoices', { count: 3, reference: 'BHP-2023-001' })).status).toBe(201);
    expect(standIn.invoices()).toHaveLength(first.length + 3);
    expect((await control('/standin/invoices', { count: 0 })).status).toBe(400);
    const reset = await control('/standin/reset', {});
    await expect(reset.json()).resolves.toMatchObject({ today: TODAY, invoices: first.length });
    expect(standIn.invoices()).toEqual(first);
  });

  it('fails API routes with the kit’s faults, in Xero’s error shape', async () => {
    await start();
    const accessToken = await token();
    standIn.faults.set({ kind: 'fail', route: 'api', status: 503, times: 1 });
    const failed = await api(accessToken, '/Invoices?page=1');
    expect(failed.status).toBe(503);
    await expect(failed.json()).resolves.toMatchObject({ Title: 'Service Unavailable', Status: 503 });
    expect((await api(accessToken, '/Invoices?page=1')).status).toBe(200);
    expect(standIn.requests('api')).toBe(2);
  });
});
