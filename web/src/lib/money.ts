/**
 * Money as the dashboards show it: Australian dollars with cents (invoice totals include GST, so cents
 * occur). The API carries dashboard amounts in integer cents and client-facing invoice totals in dollars.
 */
const AUD = new Intl.NumberFormat('en-AU', {
  style: 'currency',
  currency: 'AUD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** '$1,980.00'; '' when there is no amount. */
export function formatDollars(dollars: number | null | undefined): string {
  return dollars === null || dollars === undefined || Number.isNaN(dollars) ? '' : AUD.format(dollars);
}

/** Integer cents shown in dollars: 198000 -> '$1,980.00'. */
export function formatCents(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : formatDollars(cents / 100);
}
