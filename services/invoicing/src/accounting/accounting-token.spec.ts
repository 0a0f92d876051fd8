import { ErrorCode } from '@irp/proto';
import { AnsweringServer, startAnsweringServer, waitUntil } from '@irp/platform/testing';
import { AccountingStandIn, startAccountingStandIn } from '@irp/standins/accounting';
import { AccountingClient, INVOICE_PAGE_SIZE } from './accounting-client';

/**
 * The adapter's client-credentials token against the stand-in (issue 33): renewed before it expires, a 401
 * (expired early or revoked mid-sync) answered by one new token and one retry, a second 401 a refusal, and
 * calls refused together sharing one new token. No refresh token is ever asked for or expected.
 */
describe('the accounting adapter’s token', () => {
  const clientOf = (standIn: AccountingStandIn, now?: () => number) =>
    new AccountingClient(
      {
        baseUrl: standIn.apiUrl,
        tokenUrl: `${standIn.url}/connect/token`,
        ...standIn.client,
        timeoutMs: 5000,
        maxConcurrent: 5,
        perMinute: 600,
        maxRetryAfterMs: 1000,
      },
      now,
    );

  describe('on the stand-in’s own clock', () => {
    let standIn: AccountingStandIn;

    beforeAll(async () => {
      standIn = await startAccountingStandIn({ port: 0, host: '127.0.0.1', demo: false });
      standIn.seedInvoices({ count: 2 * INVOICE_PAGE_SIZE + 50 });
    });
    afterEach(() => standIn.faults.clear());
    afterAll(async () => {
      await standIn?.close();
    });

    it('a token expired after the first page: one new token, the page retried, the sync completes', async () => {
      const client = clientOf(standIn);
      const tokensBefore = standIn.requests('token');
      const pagesBefore = standIn.requests('invoices');
      const read: number[] = [];
      // The sync's loop (accounting-sync.ts): pages until a short one.
      for (let page = 1; ; page++) {
        const batch = await client.invoices(page);
        read.push(batch.length);
        if (page === 1) standIn.expireTokens();
        if (batch.length < INVOICE_PAGE_SIZE) break;
      }
      expect(read).toEqual([INVOICE_PAGE_SIZE, INVOICE_PAGE_SIZE, 50]);
      expect(standIn.requests('token') - tokensBefore).toBe(2);
      // Page 2 twice: refused with the expired token, then read with the new one.
      expect(standIn.requests('invoices') - pagesBefore).toBe(4);
    });

    it('a token refused on every call: one retry with a new token, then a clear refusal (no loop)', async () => {
      const client = clientOf(standIn);
      const tokensBefore = standIn.requests('token');
      const apiBefore = standIn.requests('api');
      standIn.faults.set({ kind: 'fail', route: 'api', status: 401 });
      await expect(client.invoices(1)).rejects.toMatchObject({
        code: ErrorCode.ServiceUnavailable,
        message: expect.stringContaining('The accounting system refused our credentials'),
        final: true,
      });
      expect(standIn.requests('token') - tokensBefore).toBe(2);
      expect(standIn.requests('api') - apiBefore).toBe(2);
    });

    it('calls refused together, or one refused after another renewed the token, make one token request', async () => {
      const client = clientOf(standIn);
      await client.repeatingInvoices();
      const tokensBefore = standIn.requests('token');

      // One call held at the stand-in with the old token while another is refused, renews and is answered:
      // the held one, refused once released, uses that new token instead of asking for another.
      standIn.expireTokens();
      const invoicesBefore = standIn.requests('invoices');
      standIn.faults.set({ kind: 'hold', route: 'invoices' });
      const held = client.invoices(1);
      // Its failure is asserted below; should a step between fail first, it is not an unhandled rejection.
      held.catch(() => undefined);
      await waitUntil('the invoices request held', () => standIn.requests('invoices') > invoicesBefore);
      await client.repeatingInvoices();
      standIn.faults.clear({ kind: 'hold', route: 'invoices' });
      expect(await held).toHaveLength(INVOICE_PAGE_SIZE);
      expect(standIn.requests('token') - tokensBefore).toBe(1);

      // Three refused at once.
      standIn.expireTokens();
      await Promise.all([client.invoices(1), client.repeatingInvoices(), client.invoices(2)]);
      expect(standIn.requests('token') - tokensBefore).toBe(2);
    });
  });

  it('is renewed before its expires_in, so it is never sent expired', async () => {
    let now = Date.parse('2026-11-29T09:00:00Z');
    // Xero's 30 minutes shortened to two, on one clock the stand-in and the adapter share.
    const standIn = await startAccountingStandIn({
      port: 0,
      host: '127.0.0.1',
      demo: false,
      tokenTtlSeconds: 120,
      now: () => new Date(now),
    });
    try {
      const client = clientOf(standIn, () => now);
      await client.repeatingInvoices();
      expect(standIn.requests('token')).toBe(1);
      // Still valid at the stand-in for 50 seconds, but inside the renewal margin: a new one first.
      now += 70_000;
      await client.repeatingInvoices();
      expect(standIn.requests('token')).toBe(2);
      now += 40_000;
      await client.repeatingInvoices();
      expect(standIn.requests('token')).toBe(2);
      // No call was refused: each carried a live token.
      expect(standIn.requests('api')).toBe(3);
    } finally {
      await standIn.close();
    }
  });

  /** Replies the adapter cannot use, from a small server in place of the API. */
  describe('an answer without a field the adapter reads', () => {
    let server: AnsweringServer;
    let client: AccountingClient;
    const replies: Record<string, unknown> = {
      'POST /connect/token': { access_token: 't', expires_in: 1800, token_type: 'Bearer' },
      'GET /api.xro/2.0/Invoices': { Status: 'OK', ProviderName: 'IR Portal' },
      'PUT /api.xro/2.0/Contacts': { Status: 'OK', Contacts: [{ Name: 'No Id Pty Ltd' }] },
    };

    beforeAll(async () => {
      server = await startAnsweringServer(({ method, path }) => {
        const reply = replies[`${method} ${path}`];
        return { status: reply ? 200 : 404, body: reply ?? { Title: 'Not Found', Status: 404 } };
      });
      client = new AccountingClient({
        baseUrl: `${server.url}/api.xro/2.0`,
        tokenUrl: `${server.url}/connect/token`,
        clientId: 'c',
        clientSecret: 's',
        tenantId: '',
        timeoutMs: 5000,
        maxConcurrent: 5,
        perMinute: 600,
        maxRetryAfterMs: 1000,
      });
    });
    afterAll(() => server?.close());

    it.each([
      [
        'a contact without its ContactID',
        () => client.createContact({ name: 'No Id', email: '' }),
        'Contacts.0.ContactID',
      ],
      ['a page without its Invoices (not an empty page)', () => client.invoices(1), '(Invoices:'],
    ])('%s: one clear refusal naming the field', async (_what, call, field) => {
      await expect(call()).rejects.toMatchObject({
        code: ErrorCode.ServiceUnavailable,
        message: expect.stringMatching(
          /^The accounting system's answer could not be used: .* answered a body its API does not describe/,
        ),
        final: true,
      });
      await expect(call()).rejects.toThrow(field);
    });
  });
});
