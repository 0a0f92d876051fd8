/**
 * The ASX trading calendar (pure, no dependencies): weekdays that are not ASX holidays. The reports service
 * (which days a report and the prior-day job expect trades on) and the market-data stand-in (which days it
 * has trades for) read the same calendar, so "a trading day without data" means data is missing.
 *
 * ASX holidays: New Year's Day, Australia Day (26 January, the Monday after when on a weekend), Good Friday,
 * Easter Monday, Anzac Day (25 April; no substitute), the King's Birthday (second Monday of June),
 * Christmas Day and Boxing Day (the next weekdays when on a weekend).
 */

/** 'YYYY-MM-DD' of a UTC date. */
const isoOf = (d: Date): string => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** Easter Sunday (Gregorian, anonymous algorithm). */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return utc(year, month, day);
}

/** The next weekday on or after `d`. */
const weekdayFrom = (d: Date): Date => {
  let x = d;
  while (x.getUTCDay() === 0 || x.getUTCDay() === 6) x = addDays(x, 1);
  return x;
};

const holidayCache = new Map<number, Set<string>>();

/** The ASX holidays of a year, as 'YYYY-MM-DD'. */
export function asxHolidays(year: number): Set<string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const days = new Set<string>();
  days.add(isoOf(weekdayFrom(utc(year, 1, 1))));
  days.add(isoOf(weekdayFrom(utc(year, 1, 26))));
  const easter = easterSunday(year);
  days.add(isoOf(addDays(easter, -2)));
  days.add(isoOf(addDays(easter, 1)));
  days.add(isoOf(utc(year, 4, 25)));
  const june1 = utc(year, 6, 1);
  const firstMonday = addDays(june1, (8 - june1.getUTCDay()) % 7);
  days.add(isoOf(addDays(firstMonday, 7)));
  const christmas = weekdayFrom(utc(year, 12, 25));
  days.add(isoOf(christmas));
  days.add(isoOf(weekdayFrom(addDays(christmas, 1))));
  holidayCache.set(year, days);
  return days;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the ASX trades on `day` ('YYYY-MM-DD'). */
export function isAsxTradingDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || isoOf(d) !== day) return false;
  const dow = d.getUTCDay();
  if (dow === 0 || dow === 6) return false;
  return !asxHolidays(d.getUTCFullYear()).has(day);
}

/** The trading days from `from` to `to` inclusive ('YYYY-MM-DD'), oldest first. */
export function asxTradingDaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  if (!DAY.test(from) || !DAY.test(to)) return out;
  for (let d = new Date(`${from}T00:00:00Z`); isoOf(d) <= to; d = addDays(d, 1)) {
    const day = isoOf(d);
    if (isAsxTradingDay(day)) out.push(day);
  }
  return out;
}

/** The last trading day strictly before `day`. */
export function previousAsxTradingDay(day: string): string {
  let d = addDays(new Date(`${day}T00:00:00Z`), -1);
  while (!isAsxTradingDay(isoOf(d))) d = addDays(d, -1);
  return isoOf(d);
}

/** `count` trading days strictly before `day`, oldest first. */
export function asxTradingDaysBefore(day: string, count: number): string[] {
  const out: string[] = [];
  let current = day;
  while (out.length < count) {
    current = previousAsxTradingDay(current);
    out.unshift(current);
  }
  return out;
}

/** Today's date in Sydney ('YYYY-MM-DD'): the ASX's calendar day. */
export function sydneyDayOf(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Australia/Sydney',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
  return parts;
}
