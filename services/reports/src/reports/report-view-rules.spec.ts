import { DayStats, preReleaseWindow, ReportAnnouncement, totalsByStock, withExchange } from './report-rules';
import {
  activitySummaryOf,
  brokerActivityOf,
  comparativeActivityOf,
  missingDaysOf,
  noTradesMessage,
  performanceOf,
  priceComparisonOf,
  ReportInput,
  reportPeriodOf,
  ReportStock,
  reportViewOf,
  tradeAnalysisOf,
  TopBrokers,
} from './report-view-rules';

// A fixed set, figures by hand: the target trades 1,000 @ $1.00 and 500 @ $1.10 on D1, 2,000 @ $1.20 on D2;
// the peer 100 @ $2.00 on D1 and 100 @ $2.10 on D2. D3 is a trading day the target could not load.
const D1 = '2026-03-02';
const D2 = '2026-03-03';
const D3 = '2026-03-04';
const TODAY = '2026-03-05';
const stock = (id: string, fields: Partial<ReportStock> = {}): ReportStock => ({
  id,
  combinedTicker: `${id}:ASX`,
  companyName: `${id} Ltd`,
  disableMarketData: false,
  ...fields,
});
const target = stock('TGT');
const peer = stock('PEER');
const off = stock('OFF', { disableMarketData: true });
const day = (stockId: string, tradeDay: string, f: Omit<DayStats, 'stockId' | 'tradeDay'>): DayStats => ({
  stockId,
  tradeDay,
  ...f,
});
const daily: DayStats[] = [
  day('TGT', D1, {
    numTrades: 2,
    volume: 1500,
    valueE4: 15_500_000,
    highE4: 11_000,
    lowE4: 10_000,
    openE4: 10_000,
    closeE4: 11_000,
  }),
  day('TGT', D2, {
    numTrades: 1,
    volume: 2000,
    valueE4: 24_000_000,
    highE4: 12_000,
    lowE4: 12_000,
    openE4: 12_000,
    closeE4: 12_000,
  }),
  day('PEER', D1, {
    numTrades: 1,
    volume: 100,
    valueE4: 2_000_000,
    highE4: 20_000,
    lowE4: 20_000,
    openE4: 20_000,
    closeE4: 20_000,
  }),
  day('PEER', D2, {
    numTrades: 1,
    volume: 100,
    valueE4: 2_100_000,
    highE4: 21_000,
    lowE4: 21_000,
    openE4: 21_000,
    closeE4: 21_000,
  }),
];
const daysOf = (id: string) => daily.filter((d) => d.stockId === id);
const loaded = new Set([`TGT:${D1}`, `TGT:${D2}`, `PEER:${D1}`, `PEER:${D2}`, `PEER:${D3}`]);
const gaps = [{ stockId: 'TGT', day: D3, reason: 'HTTP 503' }];
const missing = [{ ticker: 'TGT:ASX', day: D3, reason: 'HTTP 503' }];
const announcement: ReportAnnouncement = {
  day: D2,
  date: `${D2}T00:10:00.000Z`,
  headline: 'Results',
  priceSensitive: true,
};
const top: TopBrokers = new Map([
  [
    'TGT',
    {
      brokerCount: 3,
      brokers: [
        {
          broker: 1,
          name: 'Alpha',
          buys: 2,
          buyVol: 3000,
          buyValueE4: 34_000_000,
          sells: 0,
          sellVol: 0,
          sellValueE4: 0,
        },
      ],
    },
  ],
]);

describe('the figures of a report view', () => {
  it('missing days: trading days before today a read stock has not loaded, with the gap reason', () => {
    expect(missingDaysOf([target, peer, off], [D1, D2, D3], TODAY, loaded, gaps)).toEqual(missing);
    // Today (and later) is not missing yet; without a gap the day is not loaded yet.
    expect(missingDaysOf([target], [D1, D2, D3], D3, new Set([`TGT:${D1}`]), [])).toEqual([
      { ticker: 'TGT:ASX', day: D2, reason: 'not loaded from the market-data provider yet' },
    ]);
  });

  it('says why a target without trades has no report', () => {
    expect(noTradesMessage(target, D1, D3, missing)).toBe(
      `There are no trades of TGT:ASX between ${D1} and ${D3}: the market data of 1 trading day is missing`,
    );
    expect(noTradesMessage(target, D1, D3, [...missing, { ...missing[0]!, day: D2 }])).toMatch(
      /the market data of 2 trading days are missing$/,
    );
    expect(noTradesMessage(off, D1, D3, [])).toBe(
      `There are no trades of OFF:ASX between ${D1} and ${D3}: its market data is disabled`,
    );
    expect(noTradesMessage(target, D1, D3, [])).toBe(
      `There are no trades of TGT:ASX between ${D1} and ${D3}`,
    );
  });

  it('activity summary: totals, value per day, VWAP, open to close', () => {
    const totals = totalsByStock(daily).get('TGT')!;
    expect(activitySummaryOf(target, totals, daysOf('TGT'), 3)).toEqual({
      numTrades: 3,
      totalVolume: 3500,
      totalValue: 3950,
      averageDailyValue: 1975,
      vwap: 1.1286,
      open: 1,
      close: 1.2,
      high: 1.2,
      low: 1,
      changePercent: 20,
      brokerCount: 3,
      text: 'TGT:ASX: 3 trades worth $3,950 over 2 trading days, between 3 brokers.',
    });
  });

  it("broker activity: each stock's totals and its top brokers' rows", () => {
    const [t, p] = brokerActivityOf([target, peer], totalsByStock(daily), top);
    expect(t!.brokerShareAnalysis).toMatchObject({
      ticker: 'TGT:ASX',
      totalValue: 3950,
      totalVolume: 3500,
      numTrades: 3,
      brokerCount: 3,
    });
    expect(t!.brokerShareAnalysis.brokers).toMatchObject([
      { name: 'Alpha', buyValue: 3400, tradedPercent: 42.86 },
    ]);
    expect(p!.brokerShareAnalysis).toEqual({
      ticker: 'PEER:ASX',
      totalValue: 410,
      totalVolume: 200,
      numTrades: 2,
      brokerCount: 0,
      brokers: [],
    });
  });

  it('comparative activity: each stock’s share of the value traded together', () => {
    expect(comparativeActivityOf(target, [peer], totalsByStock(daily))).toEqual({
      items: [
        { name: 'TGT Ltd', percent: 90.6, meta: { ticker: 'TGT:ASX', value: 3950 } },
        { name: 'PEER Ltd', percent: 9.4, meta: { ticker: 'PEER:ASX', value: 410 } },
      ],
      targetValue: 3950,
      totalPeerValue: 410,
    });
  });

  it('price comparison and performance: closes, change from the first close, open to last close', () => {
    expect(priceComparisonOf([target], daysOf)).toEqual({
      series: [
        {
          ticker: 'TGT:ASX',
          points: [
            { day: D1, close: 1.1, changePercent: 0 },
            { day: D2, close: 1.2, changePercent: 9.09 },
          ],
        },
      ],
    });
    expect(performanceOf(daysOf('PEER'))).toBe(5);
    expect(performanceOf([])).toBeNull();
  });

  it('trade analysis: figures per day, announcements on their day, a missing day null, not zero', () => {
    const [d1, d2, d3] = tradeAnalysisOf(target, [D1, D2, D3], TODAY, daysOf('TGT'), missing, [announcement]);
    expect(d1).toEqual({
      day: D1,
      numTrades: 2,
      trVal: 1550,
      avgSize: 750,
      high: 1.1,
      low: 1,
      close: 1.1,
      announcements: [],
      missingData: false,
    });
    expect(d2!.announcements).toEqual([
      { date: announcement.date, headline: 'Results', priceSensitive: true },
    ]);
    expect(d3).toMatchObject({ day: D3, numTrades: null, trVal: null, avgSize: null, missingData: true });
    // A loaded day without trades is zeros; today without trades is not listed.
    expect(tradeAnalysisOf(target, [D1, D2, D3], D3, daysOf('TGT'), [], []).map((d) => d.day)).toEqual([
      D1,
      D2,
    ]);
    expect(tradeAnalysisOf(peer, [D3], TODAY, [], [], [])[0]).toMatchObject({ numTrades: 0, trVal: 0 });
  });

  it('report period: trading days, days with data, what is missing and what is not read', () => {
    expect(reportPeriodOf(D1, D3, [D1, D2, D3], 2, missing, [off])).toEqual({
      startDate: D1,
      endDate: D3,
      tradingDays: 3,
      daysWithData: 2,
      missingDays: missing,
      marketDataDisabled: ['OFF:ASX'],
      text: `${D1} to ${D3}: 3 trading days; market data missing for 1 stock-day; market data disabled for OFF:ASX`,
    });
    expect(reportPeriodOf(D1, D2, [D1, D2], 2, [], []).text).toBe(`${D1} to ${D2}: 2 trading days`);
  });

  describe('the whole view', () => {
    const input: ReportInput = {
      guid: 'ab'.repeat(16),
      created: '2026-03-05T01:00:00.000Z',
      target,
      peers: [peer, off],
      startDate: D1,
      endDate: D3,
      tradingDays: [D1, D2, D3],
      today: TODAY,
      allowSearch: true,
      priceOverlay: false,
      comparativeTradingActivity: false,
      announcements: [announcement],
      top,
      daily,
      loaded,
      gaps,
      flags: [],
    };

    it('puts the figures together for the target and its peers', () => {
      const made = reportViewOf(input);
      if (!made.ok) throw new Error(made.message);
      expect(made.view).toMatchObject({
        guid: input.guid,
        created: input.created,
        stockId: 'TGT',
        ticker: 'TGT:ASX',
        companyName: 'TGT Ltd',
        peers: ['PEER:ASX', 'OFF:ASX'],
        comparativeTradingActivity: null,
        peerPerformance: [
          { name: 'TGT:ASX', percentage: 20 },
          { name: 'PEER:ASX', percentage: 5 },
          { name: 'OFF:ASX', percentage: null },
        ],
        preRelease: { sessionsBefore: 5, baselineSessions: 30, threshold: 4, flags: [] },
      });
      expect(made.view.reportPeriod.missingDays).toEqual(missing);
      expect(made.view.activitySummary.brokerCount).toBe(3);
      expect(made.view.brokerActivityViewModels).toHaveLength(3);
      expect(reportViewOf({ ...input, comparativeTradingActivity: true })).toMatchObject({
        view: { comparativeTradingActivity: { targetValue: 3950, totalPeerValue: 410 } },
      });
    });

    it('is refused when the target has no trades in the range', () => {
      expect(reportViewOf({ ...input, daily: daysOf('PEER') })).toEqual({
        ok: false,
        message: noTradesMessage(target, D1, D3, missing),
      });
    });
  });
});

describe('report inputs', () => {
  it('a bare ticker means ASX', () => {
    expect(withExchange('BHP')).toBe('BHP:ASX');
    expect(withExchange('BHP:NZX')).toBe('BHP:NZX');
  });

  it("the pre-release window: from the first price-sensitive announcement's baseline to the last's day", () => {
    expect(preReleaseWindow([{ ...announcement, priceSensitive: false }])).toBeNull();
    const window = preReleaseWindow([
      announcement,
      { ...announcement, day: D3, date: `${D3}T00:00:00.000Z` },
    ]);
    expect(window).toMatchObject({ to: D3, sensitive: [announcement, { day: D3 }] });
    // 35 sessions (5 + a 30-session baseline) before 2026-03-03: Australia Day (26 January) is no session.
    expect(window!.from).toBe('2026-01-12');
  });
});
