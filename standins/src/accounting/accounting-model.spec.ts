import {
  StoredLine,
  dueDateOf,
  lineAmountCents,
  nextScheduledDate,
  parseXeroDate,
  toTenThousandths,
  totalsOf,
} from './accounting-model';

const line = (
  quantity: number,
  unitAmount: number,
  taxType: StoredLine['taxType'] = 'OUTPUT',
): StoredLine => ({
  description: 'x',
  quantity,
  unitAmount,
  accountCode: '200',
  taxType,
});
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

describe('the accounting model', () => {
  it('reads amounts as exact decimals of up to 4 places and rounds a line to cents half away from zero', () => {
    expect(toTenThousandths(19.99)).toBe(199_900n);
    expect(toTenThousandths(-0.0001)).toBe(-1n);
    expect(toTenThousandths(0.00001)).toBeUndefined();
    expect(toTenThousandths(Number.NaN)).toBeUndefined();
    expect(lineAmountCents(line(2.5, 19.99))).toBe(4998); // 49.975
    expect(lineAmountCents(line(-2.5, 19.99))).toBe(-4998);
    expect(lineAmountCents(line(0.3333, 3))).toBe(100); // 0.9999
  });

  it('computes GST per line for exclusive, inclusive and no-tax amounts', () => {
    const lines = [line(1, 10.05), line(1, 100, 'EXEMPTEXPORT')];
    // Exclusive: 10.05 + 1.01 (1.005 rounded up) + 100 with no tax.
    expect(totalsOf(lines, 'Exclusive')).toMatchObject({
      subTotalCents: 11_005,
      totalTaxCents: 101,
      totalCents: 11_106,
    });
    // Inclusive: 11.00 holds 1.00 of GST (11 / 11).
    expect(totalsOf([line(1, 11)], 'Inclusive')).toMatchObject({
      subTotalCents: 1000,
      totalTaxCents: 100,
      totalCents: 1100,
    });
    expect(totalsOf(lines, 'NoTax')).toMatchObject({ totalTaxCents: 0, totalCents: 11_005 });
  });

  it('reads Xero and ISO dates as midnight UTC and refuses others', () => {
    expect(parseXeroDate('/Date(1539993600000+0000)/')).toBe(day('2018-10-20'));
    expect(parseXeroDate('2025-02-28')).toBe(day('2025-02-28'));
    expect(parseXeroDate('2025-02-30')).toBeUndefined();
    expect(parseXeroDate('next week')).toBeUndefined();
  });

  it('finds due dates and the next run of a schedule', () => {
    expect(dueDateOf(day('2025-01-15'), 14, 'DAYSAFTERBILLDATE')).toBe(day('2025-01-29'));
    expect(dueDateOf(day('2025-01-15'), 20, 'OFFOLLOWINGMONTH')).toBe(day('2025-02-20'));
    expect(dueDateOf(day('2025-01-15'), 31, 'OFFOLLOWINGMONTH')).toBe(day('2025-02-28'));
    expect(dueDateOf(day('2025-01-15'), 5, 'DAYSAFTERBILLMONTH')).toBe(day('2025-02-05'));
    const monthly = { period: 1, unit: 'MONTHLY', startDateMs: day('2025-01-01'), endDateMs: null } as const;
    expect(nextScheduledDate(monthly, day('2025-06-30'))).toBe(day('2025-07-01'));
    expect(nextScheduledDate({ ...monthly, endDateMs: day('2025-06-15') }, day('2025-06-30'))).toBeNull();
    expect(nextScheduledDate({ ...monthly, period: 2, unit: 'WEEKLY' }, day('2025-01-10'))).toBe(
      day('2025-01-15'),
    );
  });
});
