import { z } from 'zod';

/**
 * Pure reading of the Xero-type Accounting API's answers (vendor-apis.md, "Accounting system"): its
 * `/Date(ms+hhmm)/` dates, money in dollars turned into integer cents, and its error bodies turned into
 * one message.
 */

/** `/Date(1539993600000+0000)/` (or an ISO date) as epoch milliseconds; null when absent or unreadable. */
export function parseAccountingDate(value: unknown): number | null {
  if (typeof value !== 'string' || !value) return null;
  const m = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value);
  if (m) return Number(m[1]);
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/** The ISO day (YYYY-MM-DD, UTC) of an accounting date; null when absent. */
export function accountingDay(value: unknown): string | null {
  const ms = parseAccountingDate(value);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** Dollars as the API writes them (1980.5) in integer cents, rounded half away from zero. */
export function toCents(dollars: unknown): number {
  const n = typeof dollars === 'number' ? dollars : Number(dollars ?? 0);
  if (!Number.isFinite(n)) return 0;
  return Math.sign(n) * Math.round(Math.abs(n) * 100);
}

/** Integer cents as the API's dollars. */
export const toDollars = (cents: number): number => Math.round(cents) / 100;

const dateText = z.string().nullish();
const money = z.union([z.number(), z.string()]).nullish();

/** An invoice as the API lists it; the fields this service keeps. */
export const ApiInvoiceSchema = z.object({
  Type: z.string().optional(),
  InvoiceID: z.string().min(1),
  InvoiceNumber: z.string().nullish(),
  Reference: z.string().nullish(),
  RepeatingInvoiceID: z.string().nullish(),
  Contact: z.object({ ContactID: z.string().nullish(), Name: z.string().nullish() }).nullish(),
  Date: dateText,
  DueDate: dateText,
  Status: z.string(),
  Total: money,
  AmountDue: money,
  UpdatedDateUTC: dateText,
});
export type ApiInvoice = z.infer<typeof ApiInvoiceSchema>;

export const ApiRepeatingInvoiceSchema = z.object({
  RepeatingInvoiceID: z.string().min(1),
  Type: z.string().optional(),
  Reference: z.string().nullish(),
  Status: z.string(),
  Schedule: z
    .object({
      Period: z.number().int().nullish(),
      Unit: z.string().nullish(),
      NextScheduledDate: dateText,
    })
    .nullish(),
  Contact: z.object({ ContactID: z.string().nullish(), Name: z.string().nullish() }).nullish(),
  LineItems: z.array(z.object({ Description: z.string().nullish() })).nullish(),
  SubTotal: money,
  Total: money,
});
export type ApiRepeatingInvoice = z.infer<typeof ApiRepeatingInvoiceSchema>;

/**
 * What an error body says (parsed JSON, or its text), the vendor kit's `vendorMessage` hook: a
 * ValidationException's validation messages (each element's, once), or its Message; an auth error's Detail
 * or Title; a text answer that is not HTML; else nothing.
 */
export function accountingMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const p = body as {
      Message?: unknown;
      Elements?: Array<{ ValidationErrors?: Array<{ Message?: unknown }> }>;
      Detail?: unknown;
      Title?: unknown;
    };
    const validation = [
      ...new Set(
        (Array.isArray(p.Elements) ? p.Elements : [])
          .flatMap((e) => (Array.isArray(e?.ValidationErrors) ? e.ValidationErrors : []))
          .map((v) => (typeof v?.Message === 'string' ? v.Message : ''))
          .filter(Boolean),
      ),
    ];
    if (validation.length) return validation.join(' ');
    for (const candidate of [p.Message, p.Detail, p.Title])
      if (typeof candidate === 'string' && candidate.trim()) return candidate.trim();
    return undefined;
  }
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  return text && !text.startsWith('<') ? text : undefined;
}
