/**
 * The one date formatter (spec section 9): times are shown in Sydney time like '22 Mar 2025 8:50 AM';
 * dates alone like '22 Mar 2025'; invoice dates like '05Jan24'. Built on Intl so web and services agree.
 */
export const DISPLAY_TIME_ZONE = 'Australia/Sydney';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// Building an Intl.DateTimeFormat costs far more than formatting with one (a list of 2,000 dates spent
// most of its render here), so each set of options gets one formatter, reused.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-AU', { timeZone: DISPLAY_TIME_ZONE, ...options });
    formatters.set(key, formatter);
  }
  return formatter;
}

const partsOf = (value: string | Date, options: Intl.DateTimeFormatOptions) => {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  const parts = formatterFor(options).formatToParts(date);
  // Month names are fixed here: en-AU's 'short' month is 'June'/'Sept' on some ICU versions.
  const get = (type: Intl.DateTimeFormatPartTypes) => {
    const value = parts.find((p) => p.type === type)?.value ?? '';
    return type === 'month' ? (MONTHS[Number(value) - 1] ?? value) : value;
  };
  return get;
};

/** '22 Mar 2025 8:50 AM' in Sydney time; '' for a missing or unparsable value. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const get = partsOf(value, {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  });
  if (!get) return '';
  return `${Number(get('day'))} ${get('month')} ${get('year')} ${Number(get('hour'))}:${get('minute')} ${get('dayPeriod').toUpperCase()}`;
}

/** '22 Mar 2025' in Sydney time. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const get = partsOf(value, { day: 'numeric', month: 'numeric', year: 'numeric' });
  return get ? `${Number(get('day'))} ${get('month')} ${get('year')}` : '';
}

/** '05Jan24' (invoice dates, spec section 9). */
export function formatInvoiceDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const get = partsOf(value, { day: '2-digit', month: 'numeric', year: '2-digit' });
  return get ? `${get('day')}${get('month')}${get('year')}` : '';
}

/** Whole days from `from` to `to` (default now), never negative. */
export function daysBetween(from: string | Date, to: Date = new Date()): number {
  const start = typeof from === 'string' ? new Date(from) : from;
  return Math.max(0, Math.floor((to.getTime() - start.getTime()) / 86_400_000));
}

/** '2025-03-22': the Sydney calendar date as a date input holds it; '' for a missing or unparsable value. */
export function formatIsoDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const get = partsOf(value, { day: '2-digit', month: '2-digit', year: 'numeric' });
  if (!get) return '';
  const month = String(MONTHS.indexOf(get('month')) + 1).padStart(2, '0');
  return `${get('year')}-${month}-${get('day')}`;
}

/** The current calendar month in Sydney time as YYYY-MM-DD bounds (the staff dashboard's default range). */
export function currentMonthRange(now: Date = new Date()): { startDate: string; endDate: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: DISPLAY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(now);
  const year = Number(parts.find((p) => p.type === 'year')?.value);
  const month = Number(parts.find((p) => p.type === 'month')?.value);
  // Day 0 of the next month is the last day of this one.
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const mm = String(month).padStart(2, '0');
  return { startDate: `${year}-${mm}-01`, endDate: `${year}-${mm}-${String(lastDay).padStart(2, '0')}` };
}

/**
 * The previous calendar month of `now` in Sydney time as YYYY-MM-DD bounds: a staff report's default range
 * (spec section 9), filled in by the Reports tab and by the reports service when no dates are given.
 */
export function previousCalendarMonth(now: Date = new Date()): { startDate: string; endDate: string } {
  const [year, month] = currentMonthRange(now).startDate.split('-').map(Number) as [number, number];
  const startYear = month === 1 ? year - 1 : year;
  const startMonth = month === 1 ? 12 : month - 1;
  // Day 0 of this month is the last day of the previous one.
  const lastDay = new Date(Date.UTC(year, month - 1, 0)).getUTCDate();
  const mm = String(startMonth).padStart(2, '0');
  return {
    startDate: `${startYear}-${mm}-01`,
    endDate: `${startYear}-${mm}-${String(lastDay).padStart(2, '0')}`,
  };
}
