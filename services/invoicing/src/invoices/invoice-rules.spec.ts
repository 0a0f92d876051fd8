import type { InvoiceRecord } from './accounting-record-rules';
import {
  accountingLinks,
  dashboardColumns,
  dashboardInvoice,
  newContact,
  pdfFileName,
  reminderEmail,
  repeatingText,
  stockOptionLabel,
  yearlySubscription,
} from './invoice-rules';

const NOW = new Date('2026-06-30T03:00:00Z');
const invoice = (fields: Partial<InvoiceRecord>): InvoiceRecord => ({
  invoiceId: 'i-1',
  invoiceNumber: 'INV-0001',
  status: 'AUTHORISED',
  reference: 'REF',
  contactId: 'c',
  contactName: 'Acme',
  repeatingInvoiceId: null,
  date: '2026-01-01',
  dueDate: null,
  totalCents: 198_000,
  amountDueCents: 198_000,
  updatedUtc: NOW.toISOString(),
  ...fields,
});
const daysBefore = (n: number) =>
  new Date(Date.parse('2026-06-30') - n * 86_400_000).toISOString().slice(0, 10);

describe('invoice rules', () => {
  it('is overdue when unpaid more than 90 days after its date: 89 and 90 are not, 91 is', () => {
    for (const [days, overdue] of [
      [89, false],
      [90, false],
      [91, true],
    ] as const)
      expect(dashboardInvoice(invoice({ date: daysBefore(days) }), NOW)).toMatchObject({
        daysLate: days,
        overdue,
      });
    expect(
      dashboardInvoice(invoice({ date: daysBefore(200), status: 'PAID', amountDueCents: 0 }), NOW),
    ).toMatchObject({
      unpaid: false,
      overdue: false,
      daysLate: 0,
    });
    // Authorised but nothing left to pay (paid by credit note) is not unpaid.
    expect(dashboardInvoice(invoice({ amountDueCents: 0 }), NOW).unpaid).toBe(false);
  });

  it('labels a stock ticker:exchange, website, and company name when it differs from the ticker', () => {
    const s = { combinedTicker: 'BHP:ASX', ticker: 'BHP', websiteUrl: 'bhp.com', companyName: 'BHP Group' };
    expect(stockOptionLabel(s)).toBe('BHP:ASX bhp.com BHP Group');
    expect(stockOptionLabel({ ...s, companyName: 'bhp' })).toBe('BHP:ASX bhp.com');
    expect(stockOptionLabel({ ...s, websiteUrl: '', companyName: '' })).toBe('BHP:ASX');
  });

  it('describes a repeating invoice by reference, contact, amount excluding GST and schedule', () => {
    const r = {
      id: 'r',
      reference: 'WOW-1',
      contactId: 'c',
      contactName: 'Woolworths',
      status: 'AUTHORISED',
      subtotalCents: 100_000,
      totalCents: 110_000,
      period: 12,
      unit: 'MONTHLY',
      nextScheduledDate: null,
      description: '',
    };
    expect(repeatingText(r)).toBe('WOW-1 - Woolworths: $1,000.00 + GST every 12 months');
    expect(repeatingText({ ...r, period: 1, status: 'DRAFT' })).toBe(
      'WOW-1 - Woolworths: $1,000.00 + GST every month (draft)',
    );
  });

  it('links into the accounting web app only when one is configured', () => {
    expect(accountingLinks(undefined).invoice('x')).toBeNull();
    expect(accountingLinks('https://go.example').invoice('a b')).toBe(
      'https://go.example/AccountsReceivable/View.aspx?InvoiceID=a%20b',
    );
  });

  it('writes a reminder of the unpaid invoices only, oldest first, with the total due, every value escaped', () => {
    const mail = reminderEmail({
      companyName: 'A <b>&</b> Co',
      combinedTicker: 'ABC:ASX',
      invoices: [
        invoice({
          invoiceId: 'new',
          invoiceNumber: 'INV-0009',
          date: daysBefore(10),
          amountDueCents: 55_000,
        }),
        invoice({ invoiceId: 'paid', invoiceNumber: 'INV-0005', status: 'PAID', amountDueCents: 0 }),
        invoice({ invoiceId: 'old', invoiceNumber: 'INV-0002', date: daysBefore(95) }),
      ],
      signedBy: { name: 'Accounts', email: 'accounts@example.com' },
      now: NOW,
    });
    expect(mail.unpaidCount).toBe(2);
    expect(mail.subject).toBe('Payment reminder: 2 unpaid invoices for A <b>&</b> Co');
    expect(mail.html).toContain('A &lt;b&gt;&amp;&lt;/b&gt; Co');
    expect(mail.html).not.toContain('INV-0005');
    expect(mail.html.indexOf('INV-0002')).toBeLessThan(mail.html.indexOf('INV-0009'));
    expect(mail.html).toContain('95 days (overdue)');
    expect(mail.html).toContain('$2,530.00');
    const none = reminderEmail({
      companyName: '',
      combinedTicker: 'ABC:ASX',
      invoices: [],
      signedBy: { name: 'A', email: 'a@b.c' },
      now: NOW,
    });
    expect(none.html).toContain('There are no unpaid invoices for ABC:ASX');
  });
});

describe("invoicing use cases' rules", () => {
  const repeating = {
    id: 'r-1',
    reference: 'BHP-1',
    contactId: 'c',
    contactName: 'BHP',
    status: 'AUTHORISED',
    subtotalCents: 180_000,
    totalCents: 198_000,
    period: 12,
    unit: 'MONTHLY',
    nextScheduledDate: '2026-09-01',
    description: '',
  };

  it('gives every asked-for stock its dashboard cells, null where it has none', () => {
    const links = accountingLinks(undefined);
    const columns = dashboardColumns(
      ['s-1', 's-2'],
      [
        { ...invoice({ invoiceId: 'i-9' }), stockId: 's-1' },
        { ...invoice({}), stockId: 'elsewhere' },
      ],
      [{ ...repeating, stockId: 's-2' }],
      links,
      NOW,
    );
    expect(Object.keys(columns)).toEqual(['s-1', 's-2']);
    expect(columns['s-1']).toMatchObject({ invoice: { invoiceId: 'i-9' }, repeatingInvoice: null });
    expect(columns['s-2']).toMatchObject({
      invoice: null,
      repeatingInvoice: { repeatingInvoiceId: 'r-1', amountCents: 180_000, nextScheduledDate: '2026-09-01' },
    });
  });

  it('names a contact as the company (else the ticker) with the first contact email', () => {
    const stock = {
      companyName: ' BHP Group ',
      combinedTicker: 'BHP:ASX',
      contactEmail: 'a@bhp.com; b@bhp.com',
    };
    expect(newContact(stock)).toEqual({ name: 'BHP Group', email: 'a@bhp.com' });
    expect(newContact({ ...stock, companyName: '', contactEmail: '' })).toEqual({
      name: 'BHP:ASX',
      email: '',
    });
  });

  it('bills a yearly subscription from the billing date, or today when that is past, referenced as the stock', () => {
    const stock = {
      companyName: 'BHP Group',
      combinedTicker: 'BHP:ASX',
      accountingReference: ' BHP-1 ',
      billingDate: '2026-08-15T00:00:00Z',
    };
    expect(yearlySubscription(stock, 180_050, NOW)).toEqual({
      reference: 'BHP-1',
      description: 'IR Portal annual subscription: BHP Group (BHP:ASX)',
      unitAmount: 1800.5,
      startDate: '2026-08-15',
      dueDays: 7,
    });
    expect(
      yearlySubscription({ ...stock, accountingReference: '', billingDate: '2025-01-01' }, 100, NOW),
    ).toMatchObject({ reference: 'BHP:ASX', startDate: '2026-06-30' });
    expect(yearlySubscription({ ...stock, billingDate: 'soon' }, 100, NOW).startDate).toBe('2026-06-30');
  });

  it("names an invoice's PDF by its number (else its id) with only safe characters", () => {
    expect(pdfFileName({ invoiceNumber: 'INV 0001/2', invoiceId: 'x' })).toBe('INV_0001_2.pdf');
    expect(pdfFileName({ invoiceNumber: '', invoiceId: 'abc-1' })).toBe('abc-1.pdf');
  });
});
