import { asxTradingDaysBetween } from '@irp/proto';
import {
  ACCUMULATOR_BROKER_ID,
  barOf,
  BROKERS,
  isAccumulationSession,
  isListed,
  isPatternAnnouncementDay,
  tradesOf,
} from './market-model';

describe('the simulated market', () => {
  it('has about 60 named brokers with unique ids', () => {
    expect(BROKERS.length).toBe(60);
    expect(new Set(BROKERS.map((b) => b.id)).size).toBe(60);
  });

  it('is deterministic, trades only on ASX trading days, with buyer and seller always different', () => {
    const a = tradesOf('CSL', '2026-03-02');
    expect(a.length).toBeGreaterThan(100);
    expect(tradesOf('CSL', '2026-03-02')).toBe(a);
    expect(tradesOf('CSL', '2026-03-07')).toEqual([]);
    expect(tradesOf('CSL', '2026-04-03')).toEqual([]);
    expect(a.every((t) => t.buyerBrokerId !== t.sellerBrokerId && t.volume > 0 && t.priceE4 > 0)).toBe(true);
    expect(a.map((t) => t.seq)).toEqual(a.map((_, i) => i + 1));
    // Within the session (10:00-16:00 Sydney = 23:00-05:00 UTC in AEDT).
    expect(
      a.every((t) => t.tradedAt >= '2026-03-01T23:00:00.000Z' && t.tradedAt <= '2026-03-02T05:00:00.000Z'),
    ).toBe(true);
    expect(isListed('NOQ1')).toBe(false);
    expect(isListed('BHP')).toBe(true);
  });

  it('walks prices from day to day (the open is near the previous close) with ticker-specific activity', () => {
    const days = asxTradingDaysBetween('2026-03-02', '2026-03-13');
    const bars = days.map((d) => barOf('BHP', d)!);
    for (let i = 1; i < bars.length; i++)
      expect(Math.abs(bars[i]!.openE4 / bars[i - 1]!.closeE4 - 1)).toBeLessThan(0.05);
    expect(tradesOf('BHP', '2026-03-02').length).toBeGreaterThan(tradesOf('OZL', '2026-03-02').length);
  });

  it('scales the trades a day on request (benchmarks), the demo market unchanged at 1', () => {
    const demo = tradesOf('WES', '2026-03-02');
    expect(tradesOf('WES', '2026-03-02', 1)).toBe(demo);
    const scaled = tradesOf('WES', '2026-03-02', 10);
    expect(scaled.length / demo.length).toBeCloseTo(10, 0);
    expect(tradesOf('WES', '2026-03-02', 10)).toBe(scaled);
    expect(scaled[scaled.length - 1]!.priceE4).toBe(demo[demo.length - 1]!.priceE4);
  });

  it('the demo pattern: the accumulator buys BHP in the five sessions before a price-sensitive announcement', () => {
    const day = '2026-10-15';
    expect(isPatternAnnouncementDay('BHP', day)).toBe(true);
    const before = asxTradingDaysBetween('2026-10-08', '2026-10-14');
    expect(before.every((d) => isAccumulationSession('BHP', d))).toBe(true);
    const net = (d: string) =>
      tradesOf('BHP', d).reduce(
        (s, t) =>
          s +
          (t.buyerBrokerId === ACCUMULATOR_BROKER_ID ? t.volume : 0) -
          (t.sellerBrokerId === ACCUMULATOR_BROKER_ID ? t.volume : 0),
        0,
      );
    const volume = (d: string) => tradesOf('BHP', d).reduce((s, t) => s + t.volume, 0);
    for (const d of before) expect(net(d) / volume(d)).toBeGreaterThan(0.08);
    expect(Math.abs(net('2026-09-15')) / volume('2026-09-15')).toBeLessThan(0.05);
    expect(isAccumulationSession('CSL', '2026-10-14')).toBe(false);
  });
});
