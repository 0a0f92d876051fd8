import type { MarketData, MarketDataField } from '@irp/proto';

/** The Market tab's editable fields in the spec's order, with their labels (spec sections 2 and 3). */
export const MARKET_FIELDS: readonly { field: MarketDataField; label: string }[] = [
  { field: 'ask', label: 'Ask' },
  { field: 'bid', label: 'Bid' },
  { field: 'last', label: 'Last' },
  { field: 'movement', label: 'Movement' },
  { field: 'movementPercent', label: 'Movement %' },
  { field: 'open', label: 'Open' },
  { field: 'high', label: 'High' },
  { field: 'low', label: 'Low' },
  { field: 'volume', label: 'Volume' },
  { field: 'sharesOnIssue', label: 'Shares on Issue' },
  { field: 'marketCap', label: 'Market Cap' },
];

/** The fields as typed: text, so '1,234.5' can be typed; converted to numbers on save (spec section 5). */
export type MarketFormValues = Record<MarketDataField, string>;

export function formValuesOf(data: MarketData | null | undefined): MarketFormValues {
  return Object.fromEntries(
    MARKET_FIELDS.map(({ field }) => [field, data?.[field] == null ? '' : String(data[field])]),
  ) as MarketFormValues;
}

/** A typed value as a number: separators, spaces and a dollar sign dropped; '' is null; NaN when not one. */
export function numberOf(text: string): number | null {
  const plain = text.replace(/[,\s$]/g, '');
  if (plain === '') return null;
  const value = Number(plain);
  return Number.isFinite(value) ? value : Number.NaN;
}

/** The fields whose number differs from the saved one ('1,000' and '1000' are the same). */
export function changedFields(saved: MarketFormValues, values: MarketFormValues): MarketDataField[] {
  return MARKET_FIELDS.map(({ field }) => field).filter((field) => {
    const before = numberOf(saved[field]);
    const after = numberOf(values[field]);
    return !(before === after || (Number.isNaN(before) && Number.isNaN(after)));
  });
}

/** The first field that is not a number, as the message Save shows; null when every field is one. */
export function invalidField(values: MarketFormValues): string | null {
  const bad = MARKET_FIELDS.find(({ field }) => Number.isNaN(numberOf(values[field])));
  return bad ? `${bad.label} must be a number` : null;
}

/** The body of POST /api/admin/saveMarketData: the changed fields as numbers (null clears one). */
export function saveBodyOf(
  values: MarketFormValues,
  fields: readonly MarketDataField[],
): Partial<Record<MarketDataField, number | null>> {
  return Object.fromEntries(fields.map((field) => [field, numberOf(values[field])]));
}
