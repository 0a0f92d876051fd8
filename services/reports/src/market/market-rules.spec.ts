import { currentTradingDay } from './market-rules';

describe('currentTradingDay: the trading day whose manual quotes an automatic sync keeps', () => {
  it('is today in Sydney on a trading day, by Sydney time not UTC', () => {
    expect(currentTradingDay(new Date('2026-11-30T00:00:00Z'))).toBe('2026-11-30');
    // Sunday 14:00 UTC is Monday 01:00 in Sydney (AEDT).
    expect(currentTradingDay(new Date('2026-11-29T14:00:00Z'))).toBe('2026-11-30');
  });

  it('is the last trading day before on a weekend or a holiday', () => {
    expect(currentTradingDay(new Date('2026-11-28T03:00:00Z'))).toBe('2026-11-27');
    expect(currentTradingDay(new Date('2026-11-29T03:00:00Z'))).toBe('2026-11-27');
    // Christmas Day (a Friday in 2026): Thursday's.
    expect(currentTradingDay(new Date('2026-12-25T03:00:00Z'))).toBe('2026-12-24');
  });
});
