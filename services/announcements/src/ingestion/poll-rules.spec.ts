import {
  afterFailedDownload,
  fanOut,
  initialPollWindow,
  isDue,
  isPollingDisabled,
  isStalePoll,
  MARKET_KEY,
  MAX_DOWNLOAD_ATTEMPTS,
  marketPairs,
  marketPollRequest,
  pollRequestsFor,
  releasedWithin,
  sourceKeyConflict,
  storedKey,
  sydneyYear,
  yearsToRead,
} from './poll-rules';

const due = { pollAsx: true, archived: false, subscriptionExpired: false, initialPollCompleted: true };
const now = new Date('2026-06-15T02:00:00Z');
const item = (ticker: string, sourceKey: string, releasedAt = '2026-06-14T01:00:00Z') => ({
  sourceKey,
  ticker,
  headline: `News of ${ticker}`,
  releasedAt,
  priceSensitive: false,
  documentUrl: `http://feed/${sourceKey}.pdf`,
  numberOfPages: 3,
  size: '10KB',
});

describe('which stocks are polled', () => {
  it('polls a stock with Poll on, not archived, not expired, initial poll complete', () => {
    expect(isDue(due)).toBe(true);
    expect(isDue({ ...due, pollAsx: false })).toBe(false);
    expect(isDue({ ...due, archived: true })).toBe(false);
    expect(isDue({ ...due, subscriptionExpired: true })).toBe(false);
    expect(isDue({ ...due, initialPollCompleted: false })).toBe(false);
  });

  it('publishes nothing while disablePollUntil is in the future', () => {
    expect(isPollingDisabled(null, now)).toBe(false);
    expect(isPollingDisabled(new Date(now.getTime() + 1000), now)).toBe(true);
    expect(isPollingDisabled(new Date(now.getTime() - 1000), now)).toBe(false);
  });
});

describe('the scheduler’s poll requests', () => {
  const stocks = [
    { id: 'a', ticker: 'BHP' },
    { id: 'b', ticker: 'CBA' },
  ];

  it('is one request per stock, keyed by stock id, for a per-company source', () => {
    expect(pollRequestsFor(stocks, now)).toEqual([
      { key: 'a', event: { stockId: 'a', ticker: 'BHP', market: false, requestedAt: now.toISOString() } },
      { key: 'b', event: { stockId: 'b', ticker: 'CBA', market: false, requestedAt: now.toISOString() } },
    ]);
    expect(pollRequestsFor([], now)).toEqual([]);
  });

  it('is one market-wide request for a market-wide source', () => {
    expect(marketPollRequest(now)).toEqual({
      key: MARKET_KEY,
      event: { stockId: null, ticker: null, market: true, requestedAt: now.toISOString() },
    });
  });

  it('builds one request for each of 2,000 stocks', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: `id-${i}`, ticker: `T${i}` }));
    expect(new Set(pollRequestsFor(many, now).map((r) => r.key)).size).toBe(2000);
  });

  it('skips a request older than three intervals (at least 30 s)', () => {
    const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
    expect(isStalePoll(at(29_000), now, 1000)).toBe(false);
    expect(isStalePoll(at(31_000), now, 1000)).toBe(true);
    expect(isStalePoll(at(170_000), now, 60_000)).toBe(false);
    expect(isStalePoll(at(181_000), now, 60_000)).toBe(true);
  });
});

describe('the market-wide fan-out', () => {
  const stocks = [
    { id: 'a', ticker: 'BHP' },
    { id: 'b', ticker: 'cba' },
    { id: 'c', ticker: 'CSL' },
  ];

  it('gives each polled stock the items of its ticker, only the schema’s fields', () => {
    const requests = fanOut(
      [item('BHP', '1'), item('CBA', '2'), item('BHP', '3'), item('XYZ', '4')],
      stocks,
      now.toISOString(),
    );
    expect(requests.map((r) => [r.key, r.event.items.map((i) => i.sourceKey)])).toEqual([
      ['a', ['1', '3']],
      ['b', ['2']],
    ]);
    expect(requests[0].event).toEqual({
      stockId: 'a',
      ticker: 'BHP',
      requestedAt: now.toISOString(),
      items: expect.any(Array),
    });
    expect(Object.keys(requests[0].event.items[0]).sort()).toEqual([
      'documentUrl',
      'headline',
      'priceSensitive',
      'releasedAt',
      'sourceKey',
      'ticker',
    ]);
  });

  it('also polls a stock without items when it has downloads pending', () => {
    const requests = fanOut([item('BHP', '1')], stocks, now.toISOString(), new Set(['c']));
    expect(requests.map((r) => [r.key, r.event.items.length])).toEqual([
      ['a', 1],
      ['c', 0],
    ]);
  });
  it('leaves out what is stored already, and a stock with nothing new', () => {
    const items = [item('BHP', '1'), item('BHP', '3'), item('CBA', '2'), item('XYZ', '4')];
    expect(marketPairs(items, stocks)).toEqual({ stockIds: ['a', 'a', 'b'], sourceKeys: ['1', '3', '2'] });
    const stored = new Set([storedKey('a', '1'), storedKey('b', '2')]);
    const requests = fanOut(items, stocks, now.toISOString(), new Set(), stored);
    expect(requests.map((r) => [r.key, r.event.items.map((i) => i.sourceKey)])).toEqual([['a', ['3']]]);
  });
  it('gives an item to every stock of its ticker, and asks for each pair', () => {
    const twins = [
      { id: 'a', ticker: 'BHP' },
      { id: 'n', ticker: ' bhp' },
    ];
    expect(marketPairs([item('BHP', '1')], twins)).toEqual({ stockIds: ['a', 'n'], sourceKeys: ['1', '1'] });
    const requests = fanOut(
      [item('BHP', '1')],
      twins,
      now.toISOString(),
      new Set(),
      new Set([storedKey('a', '1')]),
    );
    expect(requests.map((r) => [r.key, r.event.items.map((i) => i.sourceKey)])).toEqual([['n', ['1']]]);
  });
});

describe('initial poll years', () => {
  it('runs from the start year to this Sydney year', () => {
    // 31 Dec 14:00 UTC is already 1 Jan in Sydney.
    expect(sydneyYear(new Date('2025-12-31T14:00:00Z'))).toBe(2026);
    expect(initialPollWindow(2018, now)).toEqual({ fromYear: 2018, toYear: 2026 });
    expect(initialPollWindow(2030, now)).toEqual({ fromYear: 2026, toYear: 2026 });
  });

  it('reads the years in order, resuming at the year it was reading', () => {
    expect(yearsToRead(2022, 2025, null)).toEqual([2022, 2023, 2024, 2025]);
    expect(yearsToRead(2022, 2025, 2024)).toEqual([2024, 2025]);
    expect(yearsToRead(2022, 2025, 2025)).toEqual([2025]);
    expect(yearsToRead(2022, 2025, 2019)).toEqual([2022, 2023, 2024, 2025]);
  });
});

describe('reconcile window', () => {
  it('keeps items released within the last N days', () => {
    const items = [
      item('BHP', '1', '2026-06-10T00:00:00Z'),
      item('BHP', '2', '2026-06-01T00:00:00Z'),
      item('BHP', '3', 'not a date'),
    ];
    expect(releasedWithin(items, 7, now).map((i) => i.sourceKey)).toEqual(['1']);
  });
});

describe('a failed download', () => {
  it('stays pending with the attempt counted, then fails after the last attempt', () => {
    let state = afterFailedDownload(null, 'feed answered 503');
    expect(state).toEqual({
      fileStatus: 'pending',
      fileProblem: `Download attempt 1 of ${MAX_DOWNLOAD_ATTEMPTS} failed: feed answered 503`,
    });
    for (let i = 2; i < MAX_DOWNLOAD_ATTEMPTS; i++) {
      state = afterFailedDownload(state.fileProblem, 'timeout');
      expect(state.fileStatus).toBe('pending');
      expect(state.fileProblem).toMatch(new RegExp(`^Download attempt ${i} of`));
    }
    state = afterFailedDownload(state.fileProblem, 'timeout');
    expect(state).toEqual({
      fileStatus: 'failed',
      fileProblem: `Download failed after ${MAX_DOWNLOAD_ATTEMPTS} attempts: timeout`,
    });
  });
});

describe('a source key reported again', () => {
  const stored = {
    headline: 'Quarterly Activities Report',
    headlineOriginal: null,
    releasedAt: new Date('2025-06-30T01:00:00Z'),
  };

  it('is the same announcement when headline and release time match (any offset, outer spaces)', () => {
    expect(
      sourceKeyConflict(stored, {
        headline: ' Quarterly Activities Report',
        releasedAt: '2025-06-30T11:00:00+10:00',
      }),
    ).toBeNull();
  });

  it('names what differs when the headline or the release time is another', () => {
    expect(
      sourceKeyConflict(stored, { headline: 'Appendix 3B', releasedAt: '2025-06-30T01:00:00.000Z' }),
    ).toEqual({ headline: true, releasedAt: false });
    expect(
      sourceKeyConflict(stored, { headline: stored.headline, releasedAt: '2025-06-30T01:00:01.000Z' }),
    ).toEqual({ headline: false, releasedAt: true });
    expect(
      sourceKeyConflict(stored, { headline: 'Appendix 3Y', releasedAt: '2026-01-02T00:00:00Z' }),
    ).toEqual({
      headline: true,
      releasedAt: true,
    });
  });

  it('compares with the source’s own headline when staff edited it', () => {
    const edited = { ...stored, headline: 'Q4 Activities', headlineOriginal: 'Quarterly Activities Report' };
    expect(
      sourceKeyConflict(edited, {
        headline: 'Quarterly Activities Report',
        releasedAt: '2025-06-30T01:00:00Z',
      }),
    ).toBeNull();
    expect(
      sourceKeyConflict(edited, { headline: 'Q4 Activities', releasedAt: '2025-06-30T01:00:00Z' }),
    ).toEqual({
      headline: true,
      releasedAt: false,
    });
  });
});
