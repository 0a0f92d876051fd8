import type { StockRowDto } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import {
  BILLABLE_FILTER_LABELS,
  BILLABLE_FILTERS,
  describeActiveFilters,
  filterStocks,
  isBillable,
  nextSort,
  repeatingInvoiceTotalCents,
  showsRepeatingInvoiceTotal,
  sortStocks,
} from './filters';
import { stockRowDto } from '@/test/fixtures';

const row = stockRowDto;

const invoice = (unpaid: boolean) => ({
  invoiceId: 'i',
  invoiceNumber: 'INV-1',
  totalCents: 198000,
  date: '2025-01-01T00:00:00.000Z',
  status: unpaid ? 'AUTHORISED' : 'PAID',
  unpaid,
  overdue: false,
  daysLate: 0,
});

const billablePaid = row('BPA', { invoice: invoice(false) });
const billableUnpaid = row('BUN', { invoice: invoice(true) });
const noKey = row('NOK', { apiKey: null });
const expired = row('EXP', { subscriptionExpired: true });
const archived = row('ARC', { archived: true });
const ALL = [billablePaid, billableUnpaid, noKey, expired, archived];

const tickers = (rows: StockRowDto[]) => rows.map((r) => r.ticker);

describe('the billable select', () => {
  it('offers exactly the spec options in order', () => {
    expect(BILLABLE_FILTERS.map((f) => BILLABLE_FILTER_LABELS[f])).toEqual([
      'All (non-Archived)',
      'Billable',
      'Billable - Unpaid',
      'Non-Billable',
      'Archived',
    ]);
  });

  it('Billable = not archived, has an API key, not expired', () => {
    expect(ALL.filter(isBillable).map((r) => r.ticker)).toEqual(['BPA', 'BUN']);
    expect(isBillable(row('EMP', { apiKey: '' }))).toBe(false);
  });

  it.each([
    ['all', ['BPA', 'BUN', 'NOK', 'EXP']],
    ['billable', ['BPA', 'BUN']],
    ['billable-unpaid', ['BUN']],
    ['non-billable', ['NOK', 'EXP']],
    ['archived', ['ARC']],
  ] as const)('%s keeps %j', (billable, expected) => {
    expect(tickers(filterStocks(ALL, { text: '', billable }))).toEqual(expected);
  });
});

describe('the text filter', () => {
  const lse = row('VOD', {
    exchange: 'LSE',
    companyName: 'Vodafone Group',
    websiteUrl: 'https://vodafone.com',
  });
  const rows = [row('ABC'), lse, row('XYZ', { companyName: 'Acme Mining' })];

  it.each([
    ['ticker', 'abc', ['ABC']],
    ['exchange', 'lse', ['VOD']],
    ['website', 'vodafone.com', ['VOD']],
    ['company name', 'ACME', ['XYZ']],
    ['nothing', 'zzz', []],
    ['blank text', '   ', ['ABC', 'VOD', 'XYZ']],
  ])('matches the %s, ignoring case', (_what, text, expected) => {
    expect(tickers(filterStocks(rows, { text, billable: 'all' }))).toEqual(expected);
  });

  it('combines with the select', () => {
    expect(tickers(filterStocks(ALL, { text: 'b', billable: 'billable-unpaid' }))).toEqual(['BUN']);
  });
});

describe('sorting', () => {
  it('sorts a column ascending on the first click and descending on the second', () => {
    const first = nextSort({ sortBy: 'date', sortDirection: 'desc' }, 'ticker');
    expect(first).toEqual({ sortBy: 'ticker', sortDirection: 'asc' });
    expect(nextSort(first, 'ticker')).toEqual({ sortBy: 'ticker', sortDirection: 'desc' });
    expect(nextSort(nextSort(first, 'ticker'), 'ticker')).toEqual({ sortBy: 'ticker', sortDirection: 'asc' });
  });

  it('sorts by ticker as displayed and by created date', () => {
    const rows = [
      row('BBB', { created: '2025-03-01T00:00:00.000Z' }),
      row('AAA', { created: '2025-01-01T00:00:00.000Z' }),
      row('CCC', { created: '2025-02-01T00:00:00.000Z' }),
    ];
    expect(tickers(sortStocks(rows, { sortBy: 'ticker', sortDirection: 'asc' }))).toEqual([
      'AAA',
      'BBB',
      'CCC',
    ]);
    expect(tickers(sortStocks(rows, { sortBy: 'ticker', sortDirection: 'desc' }))).toEqual([
      'CCC',
      'BBB',
      'AAA',
    ]);
    expect(tickers(sortStocks(rows, { sortBy: 'date', sortDirection: 'desc' }))).toEqual([
      'BBB',
      'CCC',
      'AAA',
    ]);
    expect(rows.map((r) => r.ticker)).toEqual(['BBB', 'AAA', 'CCC']);
  });

  it('puts empty values last in both directions and breaks ties by ticker', () => {
    const rows = [
      row('NOK', { apiKey: null }),
      row('BBB', { apiKey: 'b' }),
      row('AAA', { apiKey: 'b' }),
      row('CCC', { apiKey: 'a' }),
    ];
    expect(tickers(sortStocks(rows, { sortBy: 'apiKey', sortDirection: 'asc' }))).toEqual([
      'CCC',
      'AAA',
      'BBB',
      'NOK',
    ]);
    expect(tickers(sortStocks(rows, { sortBy: 'apiKey', sortDirection: 'desc' }))).toEqual([
      'AAA',
      'BBB',
      'CCC',
      'NOK',
    ]);
  });

  it('sorts the invoice dates as dates, newest first descending', () => {
    const dated = (ticker: string, date: string) => row(ticker, { invoice: { ...invoice(false), date } });
    const rows = [dated('MID', '2025-02-01'), dated('NEW', '2025-10-01'), dated('OLD', '2024-12-31')];
    expect(tickers(sortStocks(rows, { sortBy: 'invoice', sortDirection: 'desc' }))).toEqual([
      'NEW',
      'MID',
      'OLD',
    ]);
    expect(tickers(sortStocks(rows, { sortBy: 'invoice', sortDirection: 'asc' }))).toEqual([
      'OLD',
      'MID',
      'NEW',
    ]);
  });

  it('sorts switches with false before true ascending', () => {
    const rows = [row('AAA', { pollAsx: true }), row('BBB', { pollAsx: false })];
    expect(tickers(sortStocks(rows, { sortBy: 'poll', sortDirection: 'asc' }))).toEqual(['BBB', 'AAA']);
  });

  // How fast is `make bench`'s (bench/stocks-dashboard.bench.mjs): a timed assertion here failed a loaded CI.
  it('sorts and filters 2,000 rows', () => {
    const rows = Array.from({ length: 2000 }, (_, i) =>
      row(`T${String((i * 7919) % 2000).padStart(4, '0')}`, {
        created: new Date(2020, 0, 1 + i).toISOString(),
      }),
    );
    const sorted = tickers(sortStocks(rows, { sortBy: 'ticker', sortDirection: 'asc' }));
    expect(sorted).toHaveLength(2000);
    expect(sorted.slice(0, 3)).toEqual(['T0000', 'T0001', 'T0002']);
    expect(sorted.every((t, i) => i === 0 || (sorted[i - 1] ?? '') < t)).toBe(true);
    const filtered = tickers(filterStocks(rows, { text: 't1', billable: 'all' }));
    expect(filtered).toHaveLength(1000);
    expect(filtered.every((t) => t.startsWith('T1'))).toBe(true);
  });
});

describe('Repeating Invoice Total', () => {
  const repeating = (amountCents: number) => ({
    repeatingInvoiceId: 'r',
    amountCents,
    nextScheduledDate: null,
    url: null,
  });

  it('sums the repeating invoice amounts in cents', () => {
    expect(
      repeatingInvoiceTotalCents([
        row('A', { repeatingInvoice: repeating(198000) }),
        row('B'),
        row('C', { repeatingInvoice: repeating(50) }),
      ]),
    ).toBe(198050);
  });

  it('shows to InvoiceTotal holders with All or Billable and no text', () => {
    expect(showsRepeatingInvoiceTotal(true, { text: '', billable: 'all' })).toBe(true);
    expect(showsRepeatingInvoiceTotal(true, { text: ' ', billable: 'billable' })).toBe(true);
    expect(showsRepeatingInvoiceTotal(true, { text: 'abc', billable: 'all' })).toBe(false);
    expect(showsRepeatingInvoiceTotal(true, { text: '', billable: 'non-billable' })).toBe(false);
    expect(showsRepeatingInvoiceTotal(false, { text: '', billable: 'all' })).toBe(false);
  });
});

describe('describeActiveFilters', () => {
  it('names the select and the text', () => {
    expect(describeActiveFilters({ text: '', billable: 'all' })).toEqual(['All (non-Archived)']);
    expect(describeActiveFilters({ text: ' abc ', billable: 'archived' })).toEqual([
      'Archived',
      'matching "abc"',
    ]);
  });
});
