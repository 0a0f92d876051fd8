import {
  DEFAULT_EXCHANGE,
  EDITABLE_STOCK_FIELDS,
  EXCHANGE_DIRECTORY,
  ISIN_EXCHANGES,
  formatIsoDate,
  normaliseTicker,
  type EditableStockField,
  type Exchange,
  type Stock,
  type StockFields,
} from '@irp/proto';
import { routeHref } from '@/api/route';
import { routes } from '@/api/routes';

/**
 * The Config tab's form values: every editable stock field, switches as booleans and everything else as
 * the text its input holds (poll start year as typed, billing date as yyyy-mm-dd, no API key as '').
 */
export type StockDraft = { [K in EditableStockField]: Stock[K] extends boolean ? boolean : string };

type BooleanField = { [K in EditableStockField]: Stock[K] extends boolean ? K : never }[EditableStockField];

const BOOLEAN_FIELDS = new Set<EditableStockField>([
  'pollAsx',
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
  'subscriptionExpired',
  'disableMarketData',
] satisfies BooleanField[]);

const isBooleanField = (field: EditableStockField): field is BooleanField => BOOLEAN_FIELDS.has(field);

/**
 * The form as a stock fills it. Tolerates missing fields: report-runners get only a stock's summary.
 */
export function draftFromStock(stock: Partial<Stock>): StockDraft {
  const draft = {} as Record<EditableStockField, string | boolean>;
  for (const field of EDITABLE_STOCK_FIELDS) {
    const value = stock[field];
    if (isBooleanField(field)) draft[field] = value === true;
    else if (field === 'billingDate') draft[field] = formatIsoDate(stock.billingDate);
    else draft[field] = value === null || value === undefined ? '' : String(value);
  }
  return draft as StockDraft;
}

/** /create: spec section 9's defaults (exchange ASX, poll start year this year, billing date today). */
export function newStockDraft(now: Date = new Date()): StockDraft {
  return {
    ...draftFromStock({}),
    exchange: DEFAULT_EXCHANGE,
    announcementStartYear: formatIsoDate(now).slice(0, 4),
    billingDate: formatIsoDate(now),
  };
}

/** Fields whose form value differs from the saved one. */
export function changedFields(saved: StockDraft, draft: StockDraft): EditableStockField[] {
  return EDITABLE_STOCK_FIELDS.filter((field) => saved[field] !== draft[field]);
}

/** The save body for `fields`: numbers converted, the ticker normalised, no API key as null. */
export function stockFieldsOf(
  draft: StockDraft,
  fields: readonly EditableStockField[] = EDITABLE_STOCK_FIELDS,
): StockFields {
  const body: Record<string, string | number | boolean | null> = {};
  for (const field of fields) {
    const value = draft[field];
    if (field === 'announcementStartYear') body[field] = Number(String(value).trim());
    else if (field === 'ticker') body[field] = normaliseTicker(String(value));
    else if (field === 'apiKey') body[field] = String(value).trim() || null;
    // A calendar date; midnight UTC is the same date in Sydney, so it reads back unchanged.
    else if (field === 'billingDate') body[field] = value ? `${String(value)}T00:00:00.000Z` : '';
    else body[field] = value;
  }
  return body as StockFields;
}

export const hasIsin = (exchange: string): boolean => ISIN_EXCHANGES.includes(exchange as Exchange);

/** [View on Exchange] for the exchanges of EXCHANGE_DIRECTORY; null for another exchange or no ticker. */
export function viewOnExchangeUrl(ticker: string, exchange: string): string | null {
  const entry = EXCHANGE_DIRECTORY.find((e) => e.code === exchange);
  const t = normaliseTicker(ticker);
  return entry && t ? entry.viewUrlTemplate.replace('{ticker}', encodeURIComponent(t)) : null;
}

/** The widget API the [Test API] link opens with the key. */
export const testApiUrl = (apiKey: string): string =>
  routeHref(routes.stocks.widgetStock, { apiKey: apiKey.trim() });
