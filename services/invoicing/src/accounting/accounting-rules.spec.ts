import {
  accountingDay,
  accountingErrorMessage,
  invoiceRecord,
  parseAccountingDate,
  repeatingInvoiceRecord,
  toCents,
} from './accounting-rules';

describe('accounting rules', () => {
  it('reads /Date(ms+hhmm)/ and ISO dates, and their UTC day', () => {
    expect(parseAccountingDate('/Date(1539993600000+0000)/')).toBe(1539993600000);
    expect(parseAccountingDate('/Date(1539993600000)/')).toBe(1539993600000);
    expect(parseAccountingDate('2018-10-20T00:00:00')).toBe(Date.UTC(2018, 9, 20));
    expect(parseAccountingDate('not a date')).toBeNull();
    expect(parseAccountingDate(undefined)).toBeNull();
    expect(accountingDay('/Date(1539993600000+1000)/')).toBe('2018-10-20');
  });

  it('keeps money in integer cents, rounding half away from zero', () => {
    expect(toCents(1980)).toBe(198_000);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(10.005)).toBe(1001);
    expect(toCents(-2.5)).toBe(-250);
    expect(toCents('12.34')).toBe(1234);
    expect(toCents(null)).toBe(0);
  });

  it("turns a ValidationException into its elements' messages, and an auth error into its detail", () => {
    const validation = JSON.stringify({
      ErrorNumber: 10,
      Type: 'ValidationException',
      Message: 'A validation exception occurred',
      Elements: [
        { ValidationErrors: [{ Message: 'The contact name X is already assigned to another contact.' }] },
        { ValidationErrors: [{ Message: 'The contact name X is already assigned to another contact.' }] },
      ],
    });
    expect(accountingErrorMessage(400, validation)).toBe(
      'The contact name X is already assigned to another contact.',
    );
    expect(accountingErrorMessage(400, JSON.stringify({ Message: 'JSON for post data was invalid' }))).toBe(
      'JSON for post data was invalid',
    );
    expect(
      accountingErrorMessage(401, JSON.stringify({ Title: 'Unauthorized', Detail: 'TokenExpired' })),
    ).toBe('TokenExpired');
    expect(accountingErrorMessage(502, '<html>Bad gateway</html>')).toBe(
      'the accounting system answered 502',
    );
  });

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
