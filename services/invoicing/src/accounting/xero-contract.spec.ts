import { join } from 'node:path';
import { ErrorCode } from '@irp/proto';
import {
  AnsweringServer,
  captureLogs,
  loggedUnderReference,
  startAnsweringServer,
  useVendorContract,
  VendorContract,
  VENDOR_CONTRACT_SETUP_MS,
} from '@irp/platform/testing';
import { startAccountingStandIn } from '@irp/standins/accounting';
import { AccountingClient, INVOICE_PAGE_SIZE } from './accounting-client';
import { accountingMessage } from './accounting-rules';

/** Xero's own OpenAPI description, committed unmodified (vendor-descriptions/xero/README.md). */
const DESCRIPTION = join(__dirname, '../../../../vendor-descriptions/xero/xero_accounting.yaml');
/** Every operation the adapter calls; the PDF is Xero's GET /Invoices/{id} with Accept: application/pdf. */
const OPERATIONS = [
  'getInvoices',
  'getInvoiceAsPdf',
  'getRepeatingInvoices',
  'createContacts',
  'createRepeatingInvoices',
];

const clone = <T>(value: T): T => structuredClone(value);
type Body = Record<string, unknown> & { Invoices?: Array<Record<string, unknown>> };

/**
 * The accounting adapter against Xero's published Accounting API description (ADR 0014): every call it
 * makes goes through a recording proxy to the stand-in, and each request it sent must be a request of its
 * published operation and each JSON reply the stand-in gave that operation's published reply. So neither
 * can drift from Xero's API unseen, which the adapter-against-stand-in tests alone cannot show.
 */
describe('the accounting adapter and stand-in against Xero’s published API', () => {
  const rig = useVendorContract({
    load: () => VendorContract.load(DESCRIPTION, { operations: OPERATIONS }),
    startStandIn: async () => {
      const standIn = await startAccountingStandIn({ port: 0, host: '127.0.0.1' });
      standIn.seedInvoices({ count: 150 });
      return standIn;
    },
  });
  const { exchangesOf, problemsOf } = rig;
  let client: AccountingClient;

  beforeAll(async () => {
    client = new AccountingClient({
      baseUrl: `${rig.proxy.url}/api.xro/2.0`,
      tokenUrl: `${rig.proxy.url}/connect/token`,
      ...rig.standIn.client,
      timeoutMs: 5000,
      maxConcurrent: 5,
      perMinute: 600,
      maxRetryAfterMs: 1000,
    });

    // Every call the adapter makes, once each (the token first, with the first of them).
    const first = await client.invoices(1);
    expect(first.length).toBe(INVOICE_PAGE_SIZE);
    expect((await client.invoices(2, new Date(rig.standIn.now().getTime() - 60_000))).length).toBeGreaterThan(
      0,
    );
    const contactId = await client.createContact({
      name: 'Contract Test Pty Ltd',
      email: 'billing@contract.example',
    });
    await client.createRepeatingInvoice({
      contactId,
      reference: 'CONTRACT-1',
      description: 'IR Portal annual subscription',
      unitAmount: 1980.5,
      accountCode: '200',
      startDate: '2027-01-01',
      dueDays: 14,
    });
    await client.repeatingInvoices();
    await client.invoicePdf(first[0]!.InvoiceID);
    // A refusal too: Xero's 400 ValidationException for a name already taken.
    await expect(
      client.createContact({ name: 'Contract Test Pty Ltd', email: 'billing@contract.example' }),
    ).rejects.toMatchObject({ code: ErrorCode.BadRequest });
  }, VENDOR_CONTRACT_SETUP_MS);

  it.each([
    ['getInvoices', 'GET', /\/Invoices$/],
    ['getRepeatingInvoices', 'GET', /\/RepeatingInvoices$/],
    ['createContacts', 'PUT', /\/Contacts$/],
    ['createRepeatingInvoices', 'PUT', /\/RepeatingInvoices$/],
  ])('%s: each request sent and each reply given is as Xero publishes it', (operationId, method, path) => {
    const exchanges = exchangesOf(method, path);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) expect(problemsOf(exchange)).toEqual({ operationId, problems: [] });
  });

  it('pages invoices and asks for changes since a moment as Xero publishes it (page, If-Modified-Since)', () => {
    const [page1, page2] = exchangesOf('GET', /\/Invoices$/);
    expect(page1!.request.query).toMatchObject({ page: '1' });
    expect(page2!.request.query).toMatchObject({ page: '2' });
    expect(page2!.request.headers['if-modified-since']).toMatch(/Z$/);
    expect((page1!.response.body as Body).Invoices).toHaveLength(INVOICE_PAGE_SIZE);
  });

  it('a refused contact answers Xero’s published error', () => {
    const refused = exchangesOf('PUT', /\/Contacts$/).filter((e) => e.response.status === 400);
    expect(refused).toHaveLength(1);
    expect(problemsOf(refused[0]!).problems).toEqual([]);
  });

  it('asks for a token by the client-credentials grant (RFC 6749 4.4; Xero publishes no operation for it)', () => {
    const tokens = exchangesOf('POST', /^\/connect\/token$/);
    expect(tokens).toHaveLength(1);
    const { headers } = tokens[0]!.request;
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers.authorization).toBe(
      `Basic ${Buffer.from(`${rig.standIn.client.clientId}:${rig.standIn.client.clientSecret}`).toString('base64')}`,
    );
    expect(tokens[0]!.response.body).toMatchObject({ access_token: expect.any(String), expires_in: 1800 });
    // Every API call carries the token and the organisation, as each operation requires.
    for (const e of rig.proxy.exchanges.filter((x) => x.request.path.startsWith('/api.xro/2.0/')))
      expect(e.request.headers).toMatchObject({
        authorization: `Bearer ${(tokens[0]!.response.body as { access_token: string }).access_token}`,
        'xero-tenant-id': rig.standIn.client.tenantId,
      });
  });

  describe('shown to fail on a deliberate mismatch', () => {
    it('a reply with a field renamed (InvoiceNumber -> InvoiceNo)', () => {
      const [page] = exchangesOf('GET', /\/Invoices$/);
      const body = clone(page!.response.body) as Body;
      const invoice = body.Invoices![3]!;
      invoice.InvoiceNo = invoice.InvoiceNumber;
      delete invoice.InvoiceNumber;
      expect(rig.contract.validateResponse('getInvoices', { status: 200, body })).toEqual([
        'getInvoices 200: /Invoices/3 must NOT have additional properties (InvoiceNo)',
      ]);
    });

    it('a reply with a value of the wrong type (a null RepeatingInvoiceID, as the stand-in sent)', () => {
      const [page] = exchangesOf('GET', /\/Invoices$/);
      const body = clone(page!.response.body) as Body;
      body.Invoices![0]!.RepeatingInvoiceID = null;
      expect(rig.contract.validateResponse('getInvoices', { status: 200, body })).toEqual([
        'getInvoices 200: /Invoices/0/RepeatingInvoiceID must be string',
      ]);
    });

    it('a request with a field the vendor does not take', () => {
      const [sent] = exchangesOf('PUT', /\/Contacts$/);
      const request = clone({ ...sent!.request, headers: { ...sent!.request.headers } });
      (request.body as { Contacts: Array<Record<string, unknown>> }).Contacts[0]!.Nickname = 'CT';
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'createContacts: /requestBody/Contacts/0 must NOT have additional properties (Nickname)',
      ]);
    });

    it('If-Modified-Since without its zone (as the adapter sent it before)', () => {
      const [, page2] = exchangesOf('GET', /\/Invoices$/);
      const request = { ...page2!.request, headers: { ...page2!.request.headers } };
      request.headers['if-modified-since'] = '2026-11-29T10:41:35.123';
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'getInvoices: /header/if-modified-since must match format "date-time"',
      ]);
    });

    it('a request without the organisation header', () => {
      const [sent] = exchangesOf('GET', /\/RepeatingInvoices$/);
      const headers = { ...sent!.request.headers, 'xero-tenant-id': undefined };
      expect(rig.contract.validateRequest({ ...sent!.request, headers }).problems).toEqual([
        "getRepeatingInvoices: /header must have required property 'xero-tenant-id'",
      ]);
    });
  });

  /**
   * The adapter reads Xero's own published examples, served as they are by a small server in place of
   * the API: what it returns is what the example says.
   */
  describe('the adapter reads Xero’s published examples', () => {
    let server: AnsweringServer;
    let fromExamples: AccountingClient;
    let refuse = false;
    const example = (operationId: string, status = 200) =>
      rig.contract.examples(operationId).responses.find((e) => e.status === status)!.value as Body;

    beforeAll(async () => {
      const routes: Record<string, string> = {
        'GET /api.xro/2.0/Invoices': 'getInvoices',
        'GET /api.xro/2.0/RepeatingInvoices': 'getRepeatingInvoices',
        'PUT /api.xro/2.0/Contacts': 'createContacts',
        'PUT /api.xro/2.0/RepeatingInvoices': 'createRepeatingInvoices',
      };
      server = await startAnsweringServer(({ method, path }) => {
        const operationId = routes[`${method} ${path}`];
        const status = refuse ? 400 : 200;
        if (path === '/connect/token')
          return { status, body: { access_token: 'example-token', expires_in: 1800, token_type: 'Bearer' } };
        return operationId
          ? { status, body: example(operationId, status) }
          : { status: 404, body: { Title: 'Not Found', Status: 404, Detail: 'No example' } };
      });
      fromExamples = new AccountingClient({
        baseUrl: `${server.url}/api.xro/2.0`,
        tokenUrl: `${server.url}/connect/token`,
        ...rig.standIn.client,
        timeoutMs: 5000,
        maxConcurrent: 5,
        perMinute: 600,
        maxRetryAfterMs: 1000,
      });
    });
    afterAll(() => server?.close());

    it('getInvoices: every invoice of the example, none skipped', async () => {
      const published = example('getInvoices').Invoices!;
      const read = await fromExamples.invoices(1);
      expect(read.map((i) => i.InvoiceID)).toEqual(published.map((i) => i.InvoiceID));
      expect(read[0]).toMatchObject({
        InvoiceNumber: published[0]!.InvoiceNumber,
        Status: published[0]!.Status,
        Date: published[0]!.Date,
      });
    });

    it('getRepeatingInvoices and createRepeatingInvoices: the example’s repeating invoice', async () => {
      const published = (example('getRepeatingInvoices').RepeatingInvoices as Body[])[0]!;
      expect((await fromExamples.repeatingInvoices())[0]).toMatchObject({
        RepeatingInvoiceID: published.RepeatingInvoiceID,
        Reference: published.Reference,
      });
      const created = (example('createRepeatingInvoices').RepeatingInvoices as Body[])[0]!;
      const input = { contactId: 'c', reference: 'r', description: 'd', unitAmount: 1, accountCode: '200' };
      await expect(
        fromExamples.createRepeatingInvoice({ ...input, startDate: '2027-01-01', dueDays: 14 }),
      ).resolves.toMatchObject({ RepeatingInvoiceID: created.RepeatingInvoiceID });
    });

    it('createContacts: the example’s contact; its 400 example as BAD_REQUEST, Xero’s message logged under its reference', async () => {
      const published = (example('createContacts').Contacts as Body[])[0]!;
      expect(await fromExamples.createContact({ name: 'Foo9987', email: '' })).toBe(
        String(published.ContactID).toLowerCase(),
      );
      refuse = true;
      try {
        const logs = captureLogs();
        const error = (await fromExamples
          .createContact({ name: 'Buzz Lightyear', email: '' })
          .catch((e: unknown) => e)) as Error;
        logs.stop();
        expect(error).toMatchObject({ code: ErrorCode.BadRequest });
        expect(error.message).toMatch(
          /^The accounting system refused the request \(reference [0-9a-f]{8}\)$/,
        );
        expect(loggedUnderReference(logs, error.message).vendorMessage).toBe(
          accountingMessage(example('createContacts', 400)),
        );
      } finally {
        refuse = false;
      }
    });
  });

  it('getInvoiceAsPdf: the PDF is asked for as Xero publishes it', () => {
    const [exchange] = exchangesOf('GET', /\/Invoices\/[^/]+$/);
    expect(exchange!.response.headers['content-type']).toContain('application/pdf');
    expect(rig.contract.validateRequest(exchange!.request, 'getInvoiceAsPdf').problems).toEqual([]);
  });
});
