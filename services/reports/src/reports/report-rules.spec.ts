import { asxTradingDaysBefore } from '@irp/proto';
import {
  brokerShareOf,
  DailyNet,
  guidOf,
  PRE_RELEASE_SESSIONS,
  preReleaseFlags,
  regenerationsRefusal,
  reportRange,
  totalsByStock,
} from './report-rules';

describe('report range', () => {
  it('defaults to the previous calendar month in Sydney', () => {
    expect(reportRange(undefined, undefined, new Date('2026-03-10T00:00:00Z'))).toMatchObject({
      ok: true,
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    });
  });

  it('refuses an end before the start, a bad date, a range without trading days or longer than a year', () => {
    const now = new Date('2026-11-28T00:00:00Z');
    expect(reportRange('2026-03-05', '2026-03-04', now)).toEqual({
      ok: false,
      message: 'The end date 2026-03-04 is before the start date 2026-03-05',
    });
    expect(reportRange('2026-02-30', '2026-03-04', now)).toEqual({
      ok: false,
      message: 'StartDate 2026-02-30 is not a date',
    });
    expect(reportRange('2026-04-03', '2026-04-06', now)).toEqual({
      ok: false,
      message: 'There are no trading days between 2026-04-03 and 2026-04-06',
    });
    expect(reportRange('2024-01-01', '2026-01-01', now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/at most 366 days/),
    });
    expect(reportRange('2026-03-02', '2026-03-06', now)).toMatchObject({
      ok: true,
      tradingDays: ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'],
    });
  });
});

describe('broker share analysis', () => {
  it('values, net, average prices and the share of traded volume = (buy + sell) / (2 x total)', () => {
    const row = brokerShareOf(
      {
        broker: 7,
        name: 'Alpha',
        buys: 2,
        buyVol: 3000,
        buyValueE4: 34_000_000,
        sells: 1,
        sellVol: 500,
        sellValueE4: 5_500_000,
      },
      3500,
    );
    expect(row).toEqual({
      name: 'Alpha',
      totVal: 3950,
      netVal: 2850,
      netVol: 2500,
      sells: 1,
      sellVol: 500,
      sellPrice: 1.1,
      sellValue: 550,
      buys: 2,
      buyVol: 3000,
      buyPrice: 1.1333,
      buyValue: 3400,
      trades: 3,
      tradedPercent: 50,
    });
    expect(
      brokerShareOf(
        { broker: 9, name: null, buys: 0, buyVol: 0, buyValueE4: 0, sells: 0, sellVol: 0, sellValueE4: 0 },
        0,
      ),
    ).toMatchObject({ name: 'Broker 9', buyPrice: 0, sellPrice: 0, tradedPercent: 0 });
  });

  it("a stock's totals are the sums of its days", () => {
    const day = (stockId: string, numTrades: number, volume: number, valueE4: number) => ({
      stockId,
      numTrades,
      volume,
      valueE4,
    });
    const totals = totalsByStock([
      day('A', 2, 300, 3_300_000),
      day('A', 1, 2000, 24_000_000),
      day('B', 1, 100, 2),
    ]);
    expect(totals.get('A')).toEqual({ numTrades: 3, volume: 2300, valueE4: 27_300_000 });
    expect(totals.get('B')).toEqual({ numTrades: 1, volume: 100, valueE4: 2 });
    expect(totals.has('C')).toBe(false);
  });

  it('guids are the 128 bits given, as 32 hex digits', () => {
    expect(guidOf(new Uint8Array(16).fill(255))).toBe('f'.repeat(32));
  });
});

describe('pre-release flag', () => {
  const announcementDay = '2026-10-15';
  const all = asxTradingDaysBefore(announcementDay, 35);
  const sessions = all.slice(-PRE_RELEASE_SESSIONS);
  const announcement = { date: '2026-10-14T22:30:00.000Z', day: announcementDay, headline: 'Results' };
  const volume = new Map(all.map((d) => [d, 100_000]));
  /** Broker 1 trades both ways every day (net +-300); broker 2 is quiet. */
  const baseline = (): DailyNet[] =>
    all.flatMap((day, i) => [
      {
        day,
        broker: 1,
        name: 'Routine',
        netVol: i % 2 ? 300 : -300,
        netValueE4: (i % 2 ? 300 : -300) * 10_000,
      },
      { day, broker: 2, name: 'Quiet', netVol: i % 3 ? 50 : -50, netValueE4: 0 },
    ]);

  it('flags a broker whose net buying in the sessions before is far from its own baseline, with the figures', () => {
    const net = baseline().map((r) =>
      r.broker === 2 && sessions.includes(r.day) ? { ...r, netVol: 6000, netValueE4: 6000 * 12_000 } : r,
    );
    const flags = preReleaseFlags([announcement], net, volume, asxTradingDaysBefore);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      broker: 'Quiet',
      headline: 'Results',
      sessions,
      netVol: 30_000,
      netVal: 36_000,
    });
    expect(flags[0]!.score).toBeGreaterThanOrEqual(4);
  });

  it("flags nothing on ordinary trading, and not a small broker's burst below 4% of the volume", () => {
    expect(preReleaseFlags([announcement], baseline(), volume, asxTradingDaysBefore)).toEqual([]);
    const small = baseline().map((r) =>
      r.broker === 2 && sessions.includes(r.day) ? { ...r, netVol: 3000 } : r,
    );
    // 15,000 of 500,000 shares (3%): not flagged however quiet the broker usually is.
    expect(preReleaseFlags([announcement], small, volume, asxTradingDaysBefore)).toEqual([]);
  });

  it('a broker that often buys this much is not an outlier (its baseline is its own); net selling is flagged too', () => {
    const habitual = baseline().map((r) => (r.broker === 2 ? { ...r, netVol: 6000 } : r));
    expect(preReleaseFlags([announcement], habitual, volume, asxTradingDaysBefore)).toEqual([]);
    const selling = baseline().map((r) =>
      r.broker === 1 && sessions.includes(r.day) ? { ...r, netVol: -5000 } : r,
    );
    expect(preReleaseFlags([announcement], selling, volume, asxTradingDaysBefore)).toEqual([
      expect.objectContaining({ broker: 'Routine', netVol: -25_000, score: expect.any(Number) }),
    ]);
  });
});

describe('public regenerations', () => {
  it('are refused once as many are kept as allowed, saying how many', () => {
    expect(regenerationsRefusal(2, 3)).toBeUndefined();
    expect(regenerationsRefusal(3, 3)).toBe(
      'This report has been searched over 3 other date ranges, as many as are kept at once: open one of them, or try again once they expire',
    );
  });
});
