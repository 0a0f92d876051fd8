import type { StockReferers } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import { filterReferers } from './filterReferers';

const at = '2025-03-22T00:00:00.000Z';
const stocks: StockReferers[] = [
  {
    ticker: 'ABC',
    exchange: 'ASX',
    combinedTicker: 'ABC:ASX',
    hits: 3,
    referers: [{ url: 'https://abc.com.au/investors', count: 3, first: at, last: at }],
  },
  { ticker: 'VOD', exchange: 'LSE', combinedTicker: 'VOD:LSE', hits: 0, referers: [] },
];

describe('filterReferers', () => {
  it('matches tickers and referer URLs, ignoring case', () => {
    expect(filterReferers(stocks, '').map((s) => s.ticker)).toEqual(['ABC', 'VOD']);
    expect(filterReferers(stocks, 'vod:lse').map((s) => s.ticker)).toEqual(['VOD']);
    expect(filterReferers(stocks, 'INVESTORS').map((s) => s.ticker)).toEqual(['ABC']);
    expect(filterReferers(stocks, 'nothing')).toEqual([]);
  });
});
