import {
  Actor,
  autoSendFilterProblem,
  CLIENT_STOCK_FIELDS,
  combinedTickerOf,
  DEFAULT_EXCHANGE,
  EDITABLE_STOCK_FIELDS,
  EditableStockField,
  ErrorCode,
  EXCHANGES,
  formatIsoDate,
  INVALID_TICKER_MESSAGE,
  hasStockRole,
  isAdmin,
  isEmailAddress,
  ISIN_EXCHANGES,
  isValidTicker,
  isWellFormedApiKey,
  normaliseTicker,
  REPLY_TO_COMMENT_FIELDS,
  splitEmailList,
  Stock,
  STOCK_FIELD_LABELS,
  StockFields,
  StockRole,
} from '@irp/proto';
import { AppError } from '@irp/platform/errors';
import type { StockEntity } from './stock.entity';
import type { StoredFieldChange } from './stock-version.entity';

/**
 * The stock rules of docs/api/stocks.md as pure functions: one place for every message, so the admin
 * screens, the client screens and any other caller get the same answer.
 */

export const FIRST_START_YEAR = 1990;
export const ISIN_MESSAGE = 'Please define a valid ISIN for LSE and FSE stocks';
export const EXCHANGE_FIXED_MESSAGE = 'The exchange cannot be changed once a stock is created';
export const USE_CHANGE_TICKER_MESSAGE = 'Use Change Ticker to change the ticker';
export const SAME_TICKER_MESSAGE = 'The new ticker is the same as the current one';
export const API_KEY_TAKEN_MESSAGE = 'This API key is already used by another stock';
export const INVALID_BILLING_DATE_MESSAGE = 'Please define a valid billing date';
export const INVALID_API_KEY_MESSAGE = 'An API key may contain only letters, digits, - and _';
export const FIRST_BILLING_YEAR = 1990;
export const LAST_BILLING_YEAR = 2100;

export const notFoundMessage = (combinedTicker: string) => `Stock ${combinedTicker} not found`;
export const duplicateTickerMessage = (ticker: string, exchange: string) =>
  `A stock with ticker ${ticker} already exists on ${exchange}`;
export const unknownExchangeMessage = (exchange: string) =>
  `Unknown exchange ${exchange}: choose ${EXCHANGES.slice(0, -1).join(', ')} or ${EXCHANGES[EXCHANGES.length - 1]}`;
export const startYearMessage = (maxYear: number) =>
  `Poll start year must be between ${FIRST_START_YEAR} and ${maxYear}`;

/** The editable settings of a stock as the service holds them (dates as Date, no key as null). */
export type StockSettings = Pick<StockEntity, EditableStockField>;

// ---------------------------------------------------------------------------------------------------
// Field rules

/**
 * ISIN (ISO 6166): two letters, nine letters or digits, and a check digit: letters become 10..35, then
 * the Luhn algorithm runs over the resulting digit string.
 */
export function isinCheckDigit(first11: string): number {
  const digits = [...first11.toUpperCase()]
    .map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c))
    .join('');
  let sum = 0;
  // From the right, every other digit starting with the rightmost is doubled (the check digit follows).
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidIsin(isin: string | null | undefined): boolean {
  const s = (isin ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(s)) return false;
  return isinCheckDigit(s.slice(0, 11)) === Number(s[11]);
}

/** Completes 11 characters (country + national code) with their check digit, e.g. for synthetic data. */
export const withIsinCheckDigit = (first11: string): string =>
  `${first11.toUpperCase()}${isinCheckDigit(first11)}`;

/** One rule for an address everywhere (proto): the stock's lists and the subscribers' addresses. */
export const isValidEmail = isEmailAddress;

/** The email-list fields; a message names one by its Config tab label (STOCK_FIELD_LABELS). */
export const EMAIL_LIST_FIELDS = [
  'confirmationEmail',
  'moderatorEmail',
  'contactEmail',
  'announcementNotificationEmails',
] as const satisfies readonly EditableStockField[];

/** The first invalid address of an email list, or undefined when all are valid. */
export const firstInvalidEmail = (list: string): string | undefined =>
  splitEmailList(list).find((e) => !isValidEmail(e));

/** The business runs on Sydney time, so "this year" is Sydney's. */
export const sydneyYear = (now: Date): number => Number(formatIsoDate(now).slice(0, 4));
export const maxStartYear = (now: Date): number => sydneyYear(now) + 1;
export const isValidStartYear = (year: number, now: Date): boolean =>
  Number.isInteger(year) && year >= FIRST_START_YEAR && year <= maxStartYear(now);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * A billing date as a save may send it: `YYYY-MM-DD` (midnight UTC) or a full ISO date-time with its
 * offset (`2026-03-05T00:00:00.000Z`, `2026-03-05T10:00+10:00`), a real calendar date in 1990..2100.
 * Anything else (what `new Date()` would guess at, like '1' or 'March 5', or years the database cannot
 * hold) is null, so it is refused with the rule's 400 rather than stored or failing in the database.
 */
export function parseBillingDate(text: string): Date | null {
  const s = text.trim();
  const m = ISO_DATE_TIME.exec(s) ?? ISO_DATE.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m
    .slice(1)
    .map((v) => (v === undefined ? 0 : Number(v)));
  if (year < FIRST_BILLING_YEAR || year > LAST_BILLING_YEAR || month < 1 || month > 12) return null;
  // Date.UTC(year, month, 0) is the last day of `month` (months count from 0 there).
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 14 || offsetMinutes > 59) return null;
  const date = new Date(s);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The `updatedAt` of a change: now, or just after the stored one when that is not earlier. Clocks of
 * service instances differ and a change may have read the time before waiting for the row lock, so a
 * plain `now` could repeat or go back; consumers order `stock.upserted` by it.
 */
export const nextUpdatedAt = (previous: Date, now: Date): Date =>
  now.getTime() > previous.getTime() ? now : new Date(previous.getTime() + 1);

export const normaliseExchange = (exchange: string): string => exchange.trim().toUpperCase();
export const isKnownExchange = (exchange: string): boolean =>
  (EXCHANGES as readonly string[]).includes(exchange);

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);
const forbidden = (message: string) => new AppError(ErrorCode.Forbidden, message);

// ---------------------------------------------------------------------------------------------------
// Settings: defaults, applying a save's fields, validation

/** Spec section 9 defaults: exchange ASX, start year this year, billing date now, switches off, text ''. */
export function defaultSettings(now: Date): StockSettings {
  return {
    ticker: '',
    exchange: DEFAULT_EXCHANGE,
    isin: '',
    companyName: '',
    pollAsx: false,
    sendPriceSensitiveAnnouncements: false,
    sendNonPriceSensitiveAnnouncements: false,
    autoSendAnnouncementEmail: false,
    autoSendNonPriceSensitiveAnnouncements: false,
    autoSendFilter: '',
    announcementStartYear: sydneyYear(now),
    confirmationEmail: '',
    moderatorEmail: '',
    contactEmail: '',
    billingDate: now,
    websiteUrl: '',
    apiKey: null,
    announcementNotificationEmails: '',
    accountingReference: '',
    subscriptionExpired: false,
    companyLogoUrl: '',
    announcementCommentTemplate: '',
    disableMarketData: false,
  };
}

export function pickSettings(stock: StockSettings): StockSettings {
  const out = {} as Record<EditableStockField, unknown>;
  for (const f of EDITABLE_STOCK_FIELDS) out[f] = stock[f];
  return out as StockSettings;
}

/**
 * The settings after a save: `fields` (already shape-checked by StockFieldsSchema) over `current`, with
 * values normalised the way they are stored. Absent fields keep their value.
 */
export function applyFields(current: StockSettings, fields: StockFields): StockSettings {
  const next = pickSettings(current);
  const text = (v: string | null | undefined) => (v ?? '').trim();
  for (const field of EDITABLE_STOCK_FIELDS) {
    const value = fields[field];
    if (value === undefined) continue;
    switch (field) {
      case 'ticker':
        next.ticker = normaliseTicker(String(value));
        break;
      case 'exchange':
        next.exchange = normaliseExchange(String(value));
        break;
      case 'isin':
        next.isin = text(value as string).toUpperCase();
        break;
      case 'apiKey':
        next.apiKey = text(value as string | null) || null;
        break;
      case 'billingDate': {
        const date = parseBillingDate(String(value));
        if (!date) throw bad(INVALID_BILLING_DATE_MESSAGE);
        next.billingDate = date;
        break;
      }
      case 'announcementStartYear':
        next.announcementStartYear = Number(value);
        break;
      case 'announcementCommentTemplate':
        // A template keeps its layout, leading blank lines included.
        next.announcementCommentTemplate = String(value ?? '');
        break;
      default:
        if (typeof value === 'boolean') (next as Record<string, unknown>)[field] = value;
        else (next as Record<string, unknown>)[field] = text(value as string);
    }
  }
  return next;
}

/**
 * Checks the rules of docs/api/stocks.md on the settings, in a fixed order so a form with several
 * problems always reports the same one first. `only` limits the checks to fields a save changed (a
 * client cannot fix fields it may not edit, so it is not held to them).
 */
export function validateSettings(s: StockSettings, now: Date, only?: ReadonlySet<string>): void {
  const checks = (f: EditableStockField) => !only || only.has(f);
  if (checks('ticker') && !isValidTicker(s.ticker)) throw bad(INVALID_TICKER_MESSAGE);
  if (checks('exchange') && !isKnownExchange(s.exchange)) throw bad(unknownExchangeMessage(s.exchange));
  if (
    (checks('isin') || checks('exchange')) &&
    (ISIN_EXCHANGES as readonly string[]).includes(s.exchange) &&
    !isValidIsin(s.isin)
  )
    throw bad(ISIN_MESSAGE);
  for (const field of EMAIL_LIST_FIELDS) {
    if (!checks(field)) continue;
    const invalid = firstInvalidEmail(s[field]);
    if (invalid !== undefined) throw bad(`Invalid email address in ${STOCK_FIELD_LABELS[field]}: ${invalid}`);
  }
  if (checks('announcementStartYear') && !isValidStartYear(s.announcementStartYear, now))
    throw bad(startYearMessage(maxStartYear(now)));
  // Matched by the pollers with a linear-time engine (RE2): refused here with that engine's reason.
  const filterProblem = checks('autoSendFilter') ? autoSendFilterProblem(s.autoSendFilter) : null;
  if (filterProblem) throw bad(filterProblem);
  // The widget API refuses keys of any other form unseen, so such a key could never be used.
  if (checks('apiKey') && s.apiKey !== null && !isWellFormedApiKey(s.apiKey))
    throw bad(INVALID_API_KEY_MESSAGE);
}

// ---------------------------------------------------------------------------------------------------
// Version history

/** A value as the version history shows it: text, `'true'`/`'false'`, ISO dates, null for none. */
export function versionText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** The fields whose stored value differs, in EDITABLE_STOCK_FIELDS order. */
export function diffSettings(before: StockSettings, after: StockSettings): StoredFieldChange[] {
  const changes: StoredFieldChange[] = [];
  for (const fieldName of EDITABLE_STOCK_FIELDS) {
    const originalValue = versionText(before[fieldName]);
    const newValue = versionText(after[fieldName]);
    if (originalValue !== newValue) changes.push({ fieldName, originalValue, newValue });
  }
  return changes;
}

/**
 * Version 1 of a new stock: every set field. A field counts as set when it holds more than the blank
 * value ('' text, no API key, a switch off); the start year and billing date are always set.
 */
export function creationChanges(created: StockSettings): StoredFieldChange[] {
  return EDITABLE_STOCK_FIELDS.filter((f) => created[f] !== false)
    .map((fieldName) => ({ fieldName, originalValue: null, newValue: versionText(created[fieldName]) }))
    .filter((c) => c.newValue !== null);
}

// ---------------------------------------------------------------------------------------------------
// Permissions

// Spec section 6: proto's isAdmin and hasStockRole (per-stock roles by stock id; Admin always passes).

export function requireAdmin(actor: Actor, action: string): void {
  if (!isAdmin(actor)) throw forbidden(`You need the Admin role to ${action}`);
}

const CLIENT_FIELDS: readonly string[] = CLIENT_STOCK_FIELDS;
const REPLY_FIELDS: readonly string[] = REPLY_TO_COMMENT_FIELDS;

/** ViewConfig on the stock, which every client save needs. */
export function requireViewConfig(actor: Actor, stockId: string, combinedTicker: string): void {
  if (!hasStockRole(actor, stockId, StockRole.ViewConfig))
    throw forbidden(`You need the ViewConfig permission on ${combinedTicker} to change its settings`);
}

/**
 * What a client save may change: CLIENT_STOCK_FIELDS, plus REPLY_TO_COMMENT_FIELDS with ReplyToComment
 * on the stock. Judged on the fields the save would change, so a form that sends back a value it was
 * shown unchanged is not refused.
 */
export function checkClientChanges(
  actor: Actor,
  stockId: string,
  combinedTicker: string,
  changedFields: readonly string[],
): void {
  const notAllowed = changedFields.filter((f) => !CLIENT_FIELDS.includes(f) && !REPLY_FIELDS.includes(f));
  if (notAllowed.length) throw bad(`Only an Admin may change ${notAllowed.join(', ')}`);
  if (
    changedFields.some((f) => REPLY_FIELDS.includes(f)) &&
    !hasStockRole(actor, stockId, StockRole.ReplyToComment)
  )
    throw forbidden(
      `You need the ReplyToComment permission on ${combinedTicker} to change moderator emails, the company logo or the comment template`,
    );
}

// ---------------------------------------------------------------------------------------------------
// The Stock message

/** The stock as services and the web app see it; `completedInitialPoll` counts polling off as complete. */
export function toStock(e: StockEntity): Stock {
  return {
    id: e.id,
    ticker: e.ticker,
    exchange: e.exchange,
    combinedTicker: combinedTickerOf(e.ticker, e.exchange),
    isin: e.isin,
    companyName: e.companyName,
    created: e.created.toISOString(),
    archived: e.archived,
    pollAsx: e.pollAsx,
    sendPriceSensitiveAnnouncements: e.sendPriceSensitiveAnnouncements,
    sendNonPriceSensitiveAnnouncements: e.sendNonPriceSensitiveAnnouncements,
    autoSendAnnouncementEmail: e.autoSendAnnouncementEmail,
    autoSendNonPriceSensitiveAnnouncements: e.autoSendNonPriceSensitiveAnnouncements,
    autoSendFilter: e.autoSendFilter,
    announcementStartYear: e.announcementStartYear,
    confirmationEmail: e.confirmationEmail,
    moderatorEmail: e.moderatorEmail,
    contactEmail: e.contactEmail,
    billingDate: e.billingDate.toISOString(),
    websiteUrl: e.websiteUrl,
    apiKey: e.apiKey,
    announcementNotificationEmails: e.announcementNotificationEmails,
    accountingReference: e.accountingReference,
    subscriptionExpired: e.subscriptionExpired,
    companyLogoUrl: e.companyLogoUrl,
    announcementCommentTemplate: e.announcementCommentTemplate,
    disableMarketData: e.disableMarketData,
    version: e.version,
    updatedAt: e.updatedAt.toISOString(),
  };
}
