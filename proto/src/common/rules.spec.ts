import { z } from 'zod';
import { invoiceStanding, OVERDUE_AFTER_DAYS } from './invoice';
import { formatZodIssues, zodIssueLines } from './zod-issues';

describe('the overdue rule', () => {
  const now = new Date('2025-04-30T00:00:00Z');
  const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();

  it('is overdue when unpaid more than 90 days after the invoice date', () => {
    expect(invoiceStanding({ unpaid: true, date: daysAgo(OVERDUE_AFTER_DAYS) }, now)).toEqual({
      daysLate: 90,
      overdue: false,
    });
    expect(invoiceStanding({ unpaid: true, date: daysAgo(91) }, now)).toEqual({
      daysLate: 91,
      overdue: true,
    });
  });

  it('is never late once paid, nor without a date', () => {
    expect(invoiceStanding({ unpaid: false, date: daysAgo(200) }, now)).toEqual({
      daysLate: 0,
      overdue: false,
    });
    expect(invoiceStanding({ unpaid: true, date: null }, now)).toEqual({ daysLate: 0, overdue: false });
  });
});

describe('the zod issue formatter', () => {
  const schema = z.object({ ticker: z.string().min(3), nested: z.object({ n: z.number() }) });

  it('names each field by its path, joined with "; "', () => {
    const error = schema.safeParse({ ticker: 'B', nested: { n: 'x' } }).error!;
    expect(formatZodIssues(error)).toBe(
      'ticker: String must contain at least 3 character(s); nested.n: Expected number, received string',
    );
  });

  it('names an issue of the whole value by the root given, or gives the message alone', () => {
    const error = z.string().safeParse(1).error!;
    expect(zodIssueLines(error, '(env)')).toEqual(['(env): Expected string, received number']);
    expect(formatZodIssues(error)).toBe('Expected string, received number');
  });
});
