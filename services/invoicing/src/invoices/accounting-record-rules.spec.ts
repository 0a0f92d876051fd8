import { invoiceRecord, repeatingInvoiceRecord } from './accounting-record-rules';

describe('accounting record rules', () => {
  it('keeps sales invoices only, with lower-case ids and no empty repeating id', () => {
    const base = {
      InvoiceID: 'ABC-1',
      InvoiceNumber: 'INV-0001',
      Reference: ' BHP-1 ',
      RepeatingInvoiceID: '00000000-0000-0000-0000-000000000000',
      Contact: { ContactID: 'C-1', Name: 'BHP' },
      Date: '/Date(1539993600000+0000)/',
      Status: 'authorised',
      Total: 1980,
      AmountDue: 1980,
      UpdatedDateUTC: '/Date(1540000000000+0000)/',
    };
    expect(invoiceRecord({ ...base, Type: 'ACCPAY' })).toBeNull();
    expect(invoiceRecord({ ...base, Type: 'ACCREC' })).toMatchObject({
      invoiceId: 'abc-1',
      reference: 'BHP-1',
      status: 'AUTHORISED',
      repeatingInvoiceId: null,
      date: '2018-10-20',
      totalCents: 198_000,
      contactId: 'c-1',
    });
    expect(
      repeatingInvoiceRecord({
        RepeatingInvoiceID: 'R-1',
        Status: 'AUTHORISED',
        Schedule: { Period: 12, Unit: 'MONTHLY', NextScheduledDate: '/Date(1539993600000+0000)/' },
        SubTotal: 1800,
        Total: 1980,
        LineItems: [{ Description: 'Annual' }],
      }),
    ).toMatchObject({
      id: 'r-1',
      subtotalCents: 180_000,
      totalCents: 198_000,
      period: 12,
      nextScheduledDate: '2018-10-20',
    });
  });
});
