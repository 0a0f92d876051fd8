import {
  asxHolidays,
  asxTradingDaysBefore,
  asxTradingDaysBetween,
  easterSunday,
  isAsxTradingDay,
  previousAsxTradingDay,
  sydneyDayOf,
} from './trading-days';

describe('ASX trading calendar', () => {
  it('knows Easter and the ASX holidays, with weekend substitutes', () => {
    expect(easterSunday(2026).toISOString().slice(0, 10)).toBe('2026-04-05');
    expect([...asxHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-01-26',
      '2026-04-03',
      '2026-04-06',
      '2026-04-25',
      '2026-06-08',
      '2026-12-25',
      '2026-12-28',
    ]);
    // 2027: Christmas on a Saturday, Boxing Day on a Sunday: Monday and Tuesday.
    expect(asxHolidays(2027).has('2027-12-27')).toBe(true);
    expect(asxHolidays(2027).has('2027-12-28')).toBe(true);
  });

  it('trading days are weekdays that are not holidays', () => {
    expect(isAsxTradingDay('2026-03-02')).toBe(true);
    expect(isAsxTradingDay('2026-03-07')).toBe(false);
    expect(isAsxTradingDay('2026-04-03')).toBe(false);
    expect(isAsxTradingDay('2026-02-30')).toBe(false);
    expect(asxTradingDaysBetween('2026-04-01', '2026-04-08')).toEqual([
      '2026-04-01',
      '2026-04-02',
      '2026-04-07',
      '2026-04-08',
    ]);
    expect(previousAsxTradingDay('2026-04-07')).toBe('2026-04-02');
    expect(asxTradingDaysBefore('2026-04-07', 2)).toEqual(['2026-04-01', '2026-04-02']);
  });

  it("gives Sydney's date of an instant", () => {
    expect(sydneyDayOf(new Date('2026-03-01T22:30:00Z'))).toBe('2026-03-02');
    expect(sydneyDayOf(new Date('2026-07-01T13:59:00Z'))).toBe('2026-07-01');
  });
});
