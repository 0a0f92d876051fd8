/**
 * The report page's numbers: dollars with thousands separators and percents to 2 decimals. Money is
 * lib/money's `formatDollars`; prices get up to 4 decimals because ASX prices go below one cent
 * (docs/api/reports.md).
 */

const COUNT = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 0 });
const PERCENT = new Intl.NumberFormat('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PRICE = new Intl.NumberFormat('en-AU', {
  style: 'currency',
  currency: 'AUD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

const COMPACT_DOLLARS = new Intl.NumberFormat('en-AU', {
  style: 'currency',
  currency: 'AUD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

const absent = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined || Number.isNaN(value);

/** '1,234,567' (trades, volumes, broker counts); '' without a value. */
export function formatCount(value: number | null | undefined): string {
  return absent(value) ? '' : COUNT.format(value);
}

/** '12.35%'; '' without a value. */
export function formatPercent(value: number | null | undefined): string {
  return absent(value) ? '' : `${PERCENT.format(value)}%`;
}

/** A change in percent with its sign: '+3.10%', '-0.52%'. */
export function formatChangePercent(value: number | null | undefined): string {
  if (absent(value)) return '';
  return value > 0 ? `+${formatPercent(value)}` : formatPercent(value);
}

/** A share price: '$43.215', '$0.0015', '$12.00'. */
export function formatPrice(value: number | null | undefined): string {
  return absent(value) ? '' : PRICE.format(value);
}

/** Dollars in short for a chart's axis, where a full amount would crowd the labels: '$12.5M', '$800K'. */
export function formatCompactDollars(value: number | null | undefined): string {
  return absent(value) ? '' : COMPACT_DOLLARS.format(value);
}
