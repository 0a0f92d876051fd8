import { diskReportOf, isBillable } from './disk-report';

const stock = (id: string, over: Partial<Parameters<typeof isBillable>[0]> = {}) => ({
  id,
  ticker: id.toUpperCase(),
  exchange: 'ASX',
  websiteUrl: `${id}.example.com`,
  apiKey: `key-${id}`,
  archived: false,
  subscriptionExpired: false,
  ...over,
});

describe('disk report', () => {
  const paying = stock('pay');
  const archived = stock('arc', { archived: true });
  const keyless = stock('nok', { apiKey: null });
  const expired = stock('exp', { subscriptionExpired: true, exchange: 'LSE' });

  it('bills a stock that is not archived, has a key and has not expired', () => {
    expect(isBillable(paying)).toBe(true);
    expect([archived, keyless, expired].map(isBillable)).toEqual([false, false, false]);
  });

  it('lists only the stocks that do not pay unless billable ones are asked for, largest first', () => {
    const usage = new Map([
      ['pay', 900],
      ['arc', 10],
      ['exp', 50],
    ]);
    const report = diskReportOf([paying, archived, keyless, expired], usage, false);
    expect(report.map((i) => [i.ticker, i.diskSpace])).toEqual([
      ['EXP:LSE', 50],
      ['ARC', 10],
      ['NOK', 0],
    ]);
    expect(report[2]).toEqual({
      ticker: 'NOK',
      diskSpace: 0,
      website: 'nok.example.com',
      apiKey: null,
      lastUsedInReport: null,
    });
    expect(diskReportOf([paying, archived, keyless, expired], usage, true).map((i) => i.ticker)).toEqual([
      'PAY',
      'EXP:LSE',
      'ARC',
      'NOK',
    ]);
  });
});
