import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';

/**
 * What the accounting stand-in holds and how it shows it in the Xero Accounting API's shapes
 * (vendor-apis.md): contacts, invoices and repeating invoices kept in integer cents and epoch milliseconds,
 * answered with Xero's `/Date(<ms>+0000)/` dates and amounts in dollars. Money is computed the way Xero does
 * it: each line's amount rounded to cents, its tax rounded per line, half away from zero, never in floats.
 */

export const DAY_MS = 86_400_000;

export const INVOICE_STATUSES = ['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const LINE_AMOUNT_TYPES = ['Exclusive', 'Inclusive', 'NoTax'] as const;
export type LineAmountType = (typeof LINE_AMOUNT_TYPES)[number];
/** Australian tax types and their rate in percent: OUTPUT is GST on sales (10%). */
export const TAX_RATES = { OUTPUT: 10, EXEMPTOUTPUT: 0, EXEMPTEXPORT: 0, BASEXCLUDED: 0 } as const;
export type TaxType = keyof typeof TAX_RATES;
export const TAX_TYPES = Object.keys(TAX_RATES) as [TaxType, ...TaxType[]];
export const SCHEDULE_UNITS = ['WEEKLY', 'MONTHLY'] as const;
export type ScheduleUnit = (typeof SCHEDULE_UNITS)[number];
export const DUE_DATE_TYPES = [
  'DAYSAFTERBILLDATE',
  'DAYSAFTERBILLMONTH',
  'OFCURRENTMONTH',
  'OFFOLLOWINGMONTH',
] as const;
export type DueDateType = (typeof DUE_DATE_TYPES)[number];

export interface StoredContact {
  id: string;
  name: string;
  email: string;
  updatedMs: number;
}

/** A line as sent: quantity and unit amount kept as the caller wrote them (up to 4 decimals). */
export interface StoredLine {
  description: string;
  quantity: number;
  unitAmount: number;
  accountCode: string;
  taxType: TaxType;
}

export interface Totals {
  subTotalCents: number;
  totalTaxCents: number;
  totalCents: number;
  /** Per line: its amount (as written, tax included for Inclusive) and its tax. */
  lines: Array<{ amountCents: number; taxCents: number }>;
}

export interface StoredInvoice {
  id: string;
  number: string;
  reference: string;
  repeatingInvoiceId: string | null;
  contactId: string;
  /** Midnight UTC of the invoice's date (Xero's dates carry no time). */
  dateMs: number;
  dueDateMs: number;
  status: InvoiceStatus;
  lineAmountTypes: LineAmountType;
  lines: StoredLine[];
  totals: Totals;
  paidCents: number;
  fullyPaidOnMs: number | null;
  updatedMs: number;
}

export interface Schedule {
  period: number;
  unit: ScheduleUnit;
  dueDate: number;
  dueDateType: DueDateType;
  startDateMs: number;
  nextScheduledDateMs: number | null;
  endDateMs: number | null;
}

export interface StoredRepeatingInvoice {
  id: string;
  reference: string;
  contactId: string;
  status: 'DRAFT' | 'AUTHORISED';
  schedule: Schedule;
  lineAmountTypes: LineAmountType;
  lines: StoredLine[];
  totals: Totals;
}

/** A GUID derived from a name (v5-like): the demo data's ids are the same on every start. */
export function nameGuid(name: string): string {
  const h = createHash('sha1').update(`irp-accounting-standin:${name}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Xero's JSON date: `/Date(1539993600000+0000)/`. */
export const xeroDate = (ms: number) => `/Date(${ms}+0000)/`;
/** Xero's companion string of a date: `2018-10-20T00:00:00`. */
export const xeroDateString = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/**
 * A date as a caller sends one: Xero's `/Date(ms[+hhmm])/` or ISO `YYYY-MM-DD[T00:00:00]`; midnight UTC of
 * that day, or undefined when it is neither.
 */
export function parseXeroDate(value: string): number | undefined {
  const xero = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value);
  if (xero) return startOfUtcDay(Number(xero[1]));
  const iso = /^(\d{4})-(\d\d)-(\d\d)(T00:00:00(\.0+)?Z?)?$/.exec(value);
  if (!iso) return undefined;
  const ms = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  return new Date(ms).toISOString().startsWith(`${iso[1]}-${iso[2]}-${iso[3]}`) ? ms : undefined;
}

export const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utc = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' });
export const plusMonths = (ms: number, months: number) => utc(ms).plus({ months }).toMillis();
export const startOfMonth = (ms: number) => utc(ms).startOf('month').toMillis();

/** The next run after `ms` of a schedule: Period weeks or months on. */
export const nextRun = (schedule: Pick<Schedule, 'period' | 'unit'>, ms: number) =>
  schedule.unit === 'WEEKLY' ? ms + schedule.period * 7 * DAY_MS : plusMonths(ms, schedule.period);

/** The first run of a schedule on or after `todayMs`, or null when it has ended. */
export function nextScheduledDate(
  schedule: Pick<Schedule, 'period' | 'unit' | 'startDateMs' | 'endDateMs'>,
  todayMs: number,
): number | null {
  let run = schedule.startDateMs;
  while (run < todayMs) run = nextRun(schedule, run);
  return schedule.endDateMs !== null && run > schedule.endDateMs ? null : run;
}

/** The due date of an invoice dated `dateMs` under a schedule's DueDate and DueDateType. */
export function dueDateOf(dateMs: number, dueDate: number, dueDateType: DueDateType): number {
  const d = utc(dateMs);
  switch (dueDateType) {
    case 'DAYSAFTERBILLDATE':
      return dateMs + dueDate * DAY_MS;
    case 'DAYSAFTERBILLMONTH':
      return d.endOf('month').startOf('day').toMillis() + dueDate * DAY_MS;
    case 'OFCURRENTMONTH':
      return d.set({ day: Math.min(Math.max(dueDate, 1), d.daysInMonth ?? 28) }).toMillis();
    case 'OFFOLLOWINGMONTH': {
      const next = d.startOf('month').plus({ months: 1 });
      return next.set({ day: Math.min(Math.max(dueDate, 1), next.daysInMonth ?? 28) }).toMillis();
    }
  }
}

// ---- Money, in integer cents ----

/**
 * A decimal amount as an integer of ten-thousandths (Xero takes up to 4 decimals on quantities and unit
 * amounts), read from the number's shortest decimal text so 19.99 is 199900, not 199899.99...; undefined
 * for more decimals, a non-finite number or one too large to keep exact.
 */
export function toTenThousandths(value: number): bigint | undefined {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e12) return undefined;
  const m = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(String(value));
  if (!m) return undefined;
  const scaled = BigInt(m[2]) * 10_000n + BigInt((m[3] ?? '').padEnd(4, '0'));
  return m[1] ? -scaled : scaled;
}

/** `n / d` rounded half away from zero (d > 0). */
export function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** A line's amount in cents: quantity times unit amount, rounded to cents. */
export function lineAmountCents(line: Pick<StoredLine, 'quantity' | 'unitAmount'>): number {
  const quantity = toTenThousandths(line.quantity);
  const unitAmount = toTenThousandths(line.unitAmount);
  if (quantity === undefined || unitAmount === undefined) throw new Error('amount with more than 4 decimals');
  // ten-thousandths times ten-thousandths is 1e8 per unit; cents are 1e2.
  return Number(divRound(quantity * unitAmount, 1_000_000n));
}

/** Totals of lines: each line's tax rounded on its own, summed (Xero's default rounding). */
export function totalsOf(lines: StoredLine[], lineAmountTypes: LineAmountType): Totals {
  const computed = lines.map((line) => {
    const amountCents = lineAmountCents(line);
    const rate = BigInt(lineAmountTypes === 'NoTax' ? 0 : TAX_RATES[line.taxType]);
    const amount = BigInt(amountCents);
    const taxCents =
      lineAmountTypes === 'Exclusive'
        ? Number(divRound(amount * rate, 100n))
        : Number(amount - divRound(amount * 100n, 100n + rate));
    return { amountCents, taxCents };
  });
  const sumAmount = computed.reduce((s, l) => s + l.amountCents, 0);
  const totalTaxCents = computed.reduce((s, l) => s + l.taxCents, 0);
  const inclusive = lineAmountTypes === 'Inclusive';
  return {
    subTotalCents: inclusive ? sumAmount - totalTaxCents : sumAmount,
    totalTaxCents,
    totalCents: inclusive ? sumAmount : sumAmount + totalTaxCents,
    lines: computed,
  };
}

/** Cents as Xero's JSON amount (dollars). */
export const dollars = (cents: number) => cents / 100;

// ---- The API's shapes ----

const lineView = (line: StoredLine, computed: Totals['lines'][number]) => ({
  Description: line.description,
  Quantity: line.quantity,
  UnitAmount: line.unitAmount,
  AccountCode: line.accountCode,
  TaxType: line.taxType,
  TaxAmount: dollars(computed.taxCents),
  LineAmount: dollars(computed.amountCents),
});

export function contactView(contact: StoredContact) {
  return {
    ContactID: contact.id,
    ContactStatus: 'ACTIVE',
    Name: contact.name,
    EmailAddress: contact.email,
    IsSupplier: false,
    IsCustomer: true,
    UpdatedDateUTC: xeroDate(contact.updatedMs),
  };
}

export function invoiceView(invoice: StoredInvoice, contact: StoredContact | undefined, withLines: boolean) {
  const amountDue =
    invoice.status === 'VOIDED' || invoice.status === 'DELETED'
      ? 0
      : invoice.totals.totalCents - invoice.paidCents;
  return {
    Type: 'ACCREC',
    InvoiceID: invoice.id,
    InvoiceNumber: invoice.number,
    Reference: invoice.reference,
    // The published schema's RepeatingInvoiceID is a string, never null: an invoice not raised by a
    // repeating one goes without it (vendor-descriptions/xero; the contract test holds replies to it).
    ...(invoice.repeatingInvoiceId !== null ? { RepeatingInvoiceID: invoice.repeatingInvoiceId } : {}),
    Contact: { ContactID: invoice.contactId, Name: contact?.name ?? '' },
    Date: xeroDate(invoice.dateMs),
    DateString: xeroDateString(invoice.dateMs),
    DueDate: xeroDate(invoice.dueDateMs),
    DueDateString: xeroDateString(invoice.dueDateMs),
    Status: invoice.status,
    LineAmountTypes: invoice.lineAmountTypes,
    SubTotal: dollars(invoice.totals.subTotalCents),
    TotalTax: dollars(invoice.totals.totalTaxCents),
    Total: dollars(invoice.totals.totalCents),
    AmountPaid: dollars(invoice.paidCents),
    AmountDue: dollars(amountDue),
    CurrencyCode: 'AUD',
    ...(invoice.fullyPaidOnMs !== null ? { FullyPaidOnDate: xeroDate(invoice.fullyPaidOnMs) } : {}),
    UpdatedDateUTC: xeroDate(invoice.updatedMs),
    ...(withLines ? { LineItems: invoice.lines.map((l, i) => lineView(l, invoice.totals.lines[i])) } : {}),
  };
}

export function repeatingInvoiceView(repeating: StoredRepeatingInvoice, contact: StoredContact | undefined) {
  const s = repeating.schedule;
  return {
    Type: 'ACCREC',
    RepeatingInvoiceID: repeating.id,
    ID: repeating.id,
    Reference: repeating.reference,
    Status: repeating.status,
    Schedule: {
      Period: s.period,
      Unit: s.unit,
      DueDate: s.dueDate,
      DueDateType: s.dueDateType,
      StartDate: xeroDate(s.startDateMs),
      // No NextScheduledDateString: Xero publishes it neither in the schema nor in an example.
      ...(s.nextScheduledDateMs !== null ? { NextScheduledDate: xeroDate(s.nextScheduledDateMs) } : {}),
      ...(s.endDateMs !== null ? { EndDate: xeroDate(s.endDateMs) } : {}),
    },
    Contact: { ContactID: repeating.contactId, Name: contact?.name ?? '' },
    LineAmountTypes: repeating.lineAmountTypes,
    LineItems: repeating.lines.map((l, i) => lineView(l, repeating.totals.lines[i])),
    SubTotal: dollars(repeating.totals.subTotalCents),
    TotalTax: dollars(repeating.totals.totalTaxCents),
    Total: dollars(repeating.totals.totalCents),
    CurrencyCode: 'AUD',
  };
}

export type InvoiceView = ReturnType<typeof invoiceView>;
export type ContactView = ReturnType<typeof contactView>;
export type RepeatingInvoiceView = ReturnType<typeof repeatingInvoiceView>;
