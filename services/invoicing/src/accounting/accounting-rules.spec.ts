import { accountingDay, accountingMessage, parseAccountingDate, toCents } from './accounting-rules';

/** What an error answer says (the vendorMessage logged under a reference): the body read by the vendor kit, then the rules. */
function accountingErrorMessage(status: number, body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = body;
  }
  return accountingMessage(parsed) ?? `the accounting system answered ${status}`;
}

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
});
