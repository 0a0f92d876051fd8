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

const WHOLE_AUD = new Intl.NumberFormat('en-AU', {
  style: 'currency',
  currency: 'AUD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/**
 * A price as spec section 9 writes it: AUD with no decimals, plus GST ('$1,800 + GST'); '' without an
 * amount. For amounts that exclude GST (repeating invoices, service order options).
 */
export function formatPricePlusGst(dollars: number | null | undefined): string {
  return dollars === null || dollars === undefined || Number.isNaN(dollars)
    ? ''
    : `${WHOLE_AUD.format(dollars)} + GST`;
}

/** Integer cents excluding GST as a price: 180000 -> '$1,800 + GST'. */
export function formatCentsPlusGst(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : formatPricePlusGst(cents / 100);
}
