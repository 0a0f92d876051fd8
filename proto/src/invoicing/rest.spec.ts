import {
  AssignInvoicesBodySchema,
  CreateRepeatingInvoiceBodySchema,
  SaveInvoiceDataBodySchema,
} from './rest';

/** The zod issues' messages of a refused body, one string. */
const refusal = (body: unknown): string => {
  const parsed = SaveInvoiceDataBodySchema.safeParse(body);
  if (parsed.success) throw new Error(`accepted ${JSON.stringify(body)}`);
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
};

/** An invoice as GET /api/admin/invoices?ticker lists it (the fields a client reads and sends back). */
const invoiceAsRead = (invoiceID: string) => ({
  invoiceID,
  invoiceNumber: 'INV-0042',
  status: 'AUTHORISED',
  totalCents: 198_000,
  amountDueCents: 198_000,
  total: 1980,
  date: '2026-01-05',
  dueDate: '2026-01-12',
  reference: 'BHP',
  contactName: 'BHP Group',
  repeatingInvoiceID: null,
  unpaid: true,
  overdue: false,
  daysLate: 0,
  url: null,
  assigned: false,
});

describe("saveInvoiceData's body (spec section 7: Ticker, repeating invoice id, Invoices)", () => {
  it('reads the camelCase body this portal sends, as it was', () => {
    expect(
      SaveInvoiceDataBodySchema.parse({
        ticker: 'BHP:ASX',
        repeatingInvoiceId: 'rep-1',
        invoices: ['inv-1', 'inv-2'],
      }),
    ).toEqual({ ticker: 'BHP:ASX', repeatingInvoiceId: 'rep-1', invoices: ['inv-1', 'inv-2'] });
    expect(SaveInvoiceDataBodySchema.parse({ repeatingInvoiceId: null })).toEqual({
      repeatingInvoiceId: null,
    });
  });

  it("reads the spec's PascalCase keys, and the keys in any case", () => {
    expect(
      SaveInvoiceDataBodySchema.parse({
        Ticker: 'BHP:ASX',
        RepeatingInvoiceId: 'rep-1',
        Invoices: ['inv-1'],
      }),
    ).toEqual({ ticker: 'BHP:ASX', repeatingInvoiceId: 'rep-1', invoices: ['inv-1'] });
    expect(SaveInvoiceDataBodySchema.parse({ TICKER: 'BHP', repeatingInvoiceID: null })).toEqual({
      ticker: 'BHP',
      repeatingInvoiceId: null,
    });
  });

  it('takes the invoiceID of the invoices as GET /api/admin/invoices read them, beside plain ids', () => {
    expect(
      SaveInvoiceDataBodySchema.parse({
        Ticker: 'BHP:ASX',
        RepeatingInvoiceId: null,
        Invoices: [invoiceAsRead('inv-1'), 'inv-2', { InvoiceId: 'inv-3' }],
      }).invoices,
    ).toEqual(['inv-1', 'inv-2', 'inv-3']);
  });

  it('leaves the repeating invoice and the invoices out when they are not sent', () => {
    expect(SaveInvoiceDataBodySchema.parse({ Invoices: [] })).toEqual({ invoices: [] });
    expect(SaveInvoiceDataBodySchema.parse({})).toEqual({});
  });

  it('refuses an unknown field naming it, and a second spelling of a field given', () => {
    expect(refusal({ Ticker: 'BHP:ASX', Invoices: [], Amount: 1 })).toContain("'Amount'");
    expect(refusal({ ticker: 'BHP:ASX', Ticker: 'RIO:ASX' })).toContain("'Ticker'");
    expect(refusal({ Ticker: 'RIO:ASX', ticker: 'BHP:ASX' })).toContain("'Ticker'");
  });

  it('refuses an invoice that is neither an id nor an invoice with its invoiceID, and a bad id', () => {
    expect(refusal({ Invoices: [{ invoiceNumber: 'INV-1' }] })).toBe(
      'invoices.0: each invoice must be an invoice id or an invoice with its invoiceID',
    );
    expect(refusal({ Invoices: [invoiceAsRead('../etc')] })).toBe(
      'invoices.0: an invoice id must be an accounting system id (letters, digits and -)',
    );
    expect(refusal({ Invoices: 'inv-1' })).toMatch(/^invoices: /);
  });

  it('keeps a field named __proto__ as data, refused as unknown', () => {
    expect(refusal(JSON.parse('{"__proto__": {"ticker": "X"}, "Invoices": []}'))).toContain("'__proto__'");
  });
});

describe('the accounting page and repeating invoice bodies (issue 34: values from the domain)', () => {
  const messages = (parsed: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
    parsed.success ? [] : parsed.error!.issues.map((i) => i.message);

  it('refuses choices naming an invoice twice (any case), naming it, where the database answered 500', () => {
    const item = { invoiceId: 'inv-1', ticker: 'BHP:ASX' };
    expect(
      messages(AssignInvoicesBodySchema.safeParse({ items: [item, { ...item, invoiceId: 'INV-1' }] })),
    ).toEqual(['Choose once for each invoice: inv-1 is given more than once']);
    expect(
      AssignInvoicesBodySchema.parse({ items: [item, { invoiceId: 'inv-2', ignore: true }] }).items,
    ).toHaveLength(2);
  });

  it('refuses an amount of less than a cent, which reached the service as 0 cents', () => {
    const id = '7a1f1c9e-2d0b-4c1e-9a55-3f0f4a5b6c7d';
    expect(messages(CreateRepeatingInvoiceBodySchema.safeParse({ id, amount: 0.001 }))).toEqual([
      'amount must be at least 0.01',
    ]);
    expect(CreateRepeatingInvoiceBodySchema.parse({ id, amount: '0.01' }).amount).toBe(0.01);
  });
});
