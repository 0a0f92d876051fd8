import {
  AccountingPageDto,
  DashboardInvoiceDto,
  DashboardRepeatingInvoiceDto,
  escapeHtml,
  formatInvoiceDate,
  InvoiceDto,
  invoiceStanding,
  OVERDUE_AFTER_DAYS,
  RepeatingInvoiceDto,
  ReplyOf,
  StockInvoiceDataDto,
  Topics,
} from '@irp/proto';
import type { NewRepeatingInvoice } from '../accounting/accounting-client';
import type { RepeatingInvoiceRecord } from './accounting-record-rules';
import { toDollars } from '../accounting/accounting-rules';
import type { SyncState } from '../accounting/sync-state.repository';
import type { ProjectedStock, StockOption } from '../stocks/stock-projection.repository';
import type { MatchedInvoice, StoredInvoice } from './invoices.repository';
import type { StockRepeatingInvoice } from './repeating-invoices.repository';

/**
 * Pure rules of invoicing: what an invoice and a repeating invoice look like to the routes and the
 * dashboards, the Invoices tab and the accounting page, staff's choices as stored, a new contact and yearly
 * subscription, the reminder mail and the PDF's name. Money stays in integer cents until it is shown.
 */

/** Spec section 9: a new repeating invoice's amount when nothing else says, in dollars excluding GST. */
export const DEFAULT_REPEATING_AMOUNT = 1800;
/** Spec section 9's terms: payment is due within 7 days of the invoice. */
export const PAYMENT_DUE_DAYS = 7;

/**
 * Links into the accounting system's web app (Xero's paths), or null without one configured. A class, so
 * that it is also the token use cases are given this process's links by (accounting-links.provider.ts).
 */
export abstract class AccountingLinks {
  abstract invoice(id: string): string | null;
  abstract repeatingInvoice(id: string): string | null;
}

export function accountingLinks(appUrl: string | undefined): AccountingLinks {
  return {
    invoice: (id) =>
      appUrl ? `${appUrl}/AccountsReceivable/View.aspx?InvoiceID=${encodeURIComponent(id)}` : null,
    repeatingInvoice: (id) =>
      appUrl ? `${appUrl}/RepeatTransactions/Edit.aspx?invoiceID=${encodeURIComponent(id)}` : null,
  };
}

/** Not paid and something still due. */
export const isUnpaid = (i: Pick<StoredInvoice, 'status' | 'amountDueCents'>): boolean =>
  i.status !== 'PAID' && i.amountDueCents > 0;

/**
 * An invoice as the Invoices tab lists it, with proto's overdue rule; `assignedTicker` is the stock staff
 * gave it by hand (null when its reference matches the stock).
 */
export function invoiceDto(
  i: StoredInvoice & Pick<MatchedInvoice, 'assignedTicker'>,
  links: AccountingLinks,
  now: Date,
): InvoiceDto {
  const unpaid = isUnpaid(i);
  const standing = invoiceStanding({ unpaid, date: i.date }, now);
  return {
    invoiceID: i.invoiceId,
    invoiceNumber: i.invoiceNumber,
    status: i.status,
    totalCents: i.totalCents,
    amountDueCents: i.amountDueCents,
    total: toDollars(i.totalCents),
    date: i.date,
    dueDate: i.dueDate,
    reference: i.reference,
    contactName: i.contactName,
    repeatingInvoiceID: i.repeatingInvoiceId,
    unpaid,
    overdue: standing.overdue,
    daysLate: standing.daysLate,
    url: links.invoice(i.invoiceId),
    assigned: i.assignedTicker !== null,
  };
}

/** The dashboards' invoice cell. */
export function dashboardInvoice(i: StoredInvoice, now: Date): DashboardInvoiceDto {
  const unpaid = isUnpaid(i);
  const standing = invoiceStanding({ unpaid, date: i.date }, now);
  return {
    invoiceId: i.invoiceId,
    invoiceNumber: i.invoiceNumber,
    totalCents: i.totalCents,
    date: i.date,
    status: i.status,
    unpaid,
    overdue: standing.overdue,
    daysLate: standing.daysLate,
  };
}

/** The dashboards' repeat cell: the amount excluding GST (shown "+ GST"), the next date, the link. */
export function dashboardRepeating(
  r: RepeatingInvoiceRecord,
  links: AccountingLinks,
): DashboardRepeatingInvoiceDto {
  return {
    repeatingInvoiceId: r.id,
    amountCents: r.subtotalCents,
    nextScheduledDate: r.nextScheduledDate,
    url: links.repeatingInvoice(r.id),
  };
}

const aud = (cents: number) =>
  `$${toDollars(cents).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** "every 12 months" / "every month" / "every 2 weeks". */
export function scheduleText(period: number, unit: string): string {
  const noun = unit === 'WEEKLY' ? 'week' : 'month';
  return period === 1 ? `every ${noun}` : `every ${period} ${noun}s`;
}

/** One line for a selector or list: reference, contact, amount excluding GST, schedule, next date. */
export function repeatingText(r: RepeatingInvoiceRecord): string {
  const who = [r.reference, r.contactName].filter(Boolean).join(' - ') || r.id;
  const next = r.nextScheduledDate ? `, next ${formatInvoiceDate(r.nextScheduledDate)}` : '';
  const draft = r.status === 'AUTHORISED' ? '' : ` (${r.status.toLowerCase()})`;
  return `${who}: ${aud(r.subtotalCents)} + GST ${scheduleText(r.period, r.unit)}${next}${draft}`;
}

export function repeatingDto(r: RepeatingInvoiceRecord, links: AccountingLinks): RepeatingInvoiceDto {
  return {
    id: r.id,
    text: repeatingText(r),
    reference: r.reference,
    contactName: r.contactName,
    status: r.status,
    totalCents: r.totalCents,
    total: toDollars(r.totalCents),
    schedule: { period: r.period, unit: r.unit, nextScheduledDate: r.nextScheduledDate },
    url: links.repeatingInvoice(r.id),
  };
}

/** An invoice line of the accounting page: number, contact, reference, date, total, paid or not. */
export function invoiceText(i: StoredInvoice): string {
  const parts = [i.invoiceNumber, i.contactName, i.reference ? `ref ${i.reference}` : 'no reference'];
  const state = isUnpaid(i) ? 'Unpaid' : 'Paid';
  return `${parts.filter(Boolean).join(' - ')}: ${aud(i.totalCents)} on ${formatInvoiceDate(i.date)} (${state})`;
}

/** The accounting page's label of a stock: ticker:exchange, its website, its company name when it differs. */
export function stockOptionLabel(s: {
  combinedTicker: string;
  ticker: string;
  websiteUrl: string;
  companyName: string;
}): string {
  const name = s.companyName.trim();
  return [
    s.combinedTicker,
    s.websiteUrl.trim(),
    name && name.toUpperCase() !== s.ticker.toUpperCase() ? name : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export interface ReminderInput {
  companyName: string;
  combinedTicker: string;
  invoices: StoredInvoice[];
  signedBy: { name: string; email: string };
  now: Date;
}

/**
 * The reminder mail staff copy from the dashboard: the stock's unpaid invoices (number, date, amount due,
 * days since the invoice, overdue ones flagged), the total due and the payment terms. HTML with every
 * value escaped.
 */
export function reminderEmail(input: ReminderInput): { subject: string; html: string; unpaidCount: number } {
  const unpaid = input.invoices.filter(isUnpaid).sort((a, b) => a.date.localeCompare(b.date));
  const name = companyNameOf(input);
  const subject = `Payment reminder: ${unpaid.length} unpaid invoice${unpaid.length === 1 ? '' : 's'} for ${name}`;
  const due = unpaid.reduce((sum, i) => sum + i.amountDueCents, 0);
  const rows = unpaid
    .map((i) => {
      const { daysLate, overdue } = invoiceStanding({ unpaid: true, date: i.date }, input.now);
      const age = `${daysLate} day${daysLate === 1 ? '' : 's'}${overdue ? ' (overdue)' : ''}`;
      return (
        `<tr><td>${escapeHtml(i.invoiceNumber)}</td><td>${escapeHtml(formatInvoiceDate(i.date))}</td>` +
        `<td style="text-align:right">${escapeHtml(aud(i.amountDueCents))}</td>` +
        `<td${overdue ? ' style="color:#c92a2a"' : ''}>${escapeHtml(age)}</td></tr>`
      );
    })
    .join('');
  const body = unpaid.length
    ? `<p>Our records show the following invoice${unpaid.length === 1 ? ' is' : 's are'} unpaid for ` +
      `${escapeHtml(name)} (${escapeHtml(input.combinedTicker)}):</p>` +
      `<table border="1" cellpadding="4" cellspacing="0"><thead><tr><th>Invoice</th><th>Date</th>` +
      `<th>Amount due</th><th>Age</th></tr></thead><tbody>${rows}</tbody>` +
      `<tfoot><tr><th colspan="2">Total due</th><th style="text-align:right">${escapeHtml(aud(due))}</th><th></th></tr></tfoot></table>` +
      `<p>Payment is due within 7 days of the invoice date; invoices unpaid more than ${OVERDUE_AFTER_DAYS} days are overdue. ` +
      `If you have already paid, please disregard this reminder.</p>`
    : `<p>There are no unpaid invoices for ${escapeHtml(name)} (${escapeHtml(input.combinedTicker)}).</p>`;
  const html =
    `<p>Dear ${escapeHtml(name)} accounts team,</p>${body}` +
    `<p>Kind regards,<br>${escapeHtml(input.signedBy.name)}<br>` +
    `<a href="mailto:${escapeHtml(input.signedBy.email)}">${escapeHtml(input.signedBy.email)}</a></p>`;
  return { subject, html, unpaidCount: unpaid.length };
}

/** The ISO day (UTC) of a moment: the dashboards' default end date, a new schedule's earliest start. */
export const isoDayOf = (now: Date): string => now.toISOString().slice(0, 10);

/** What a stock is called to the accounting system and in mails: its company name, else its ticker. */
export const companyNameOf = (s: Pick<ProjectedStock, 'companyName' | 'combinedTicker'>): string =>
  s.companyName.trim() || s.combinedTicker;

export type DashboardColumns = ReplyOf<typeof Topics.InvoicingDashboard>['stocks'];

/** Every asked-for stock's Invoice and Repeat cells: its newest invoice and its repeating invoice, or null. */
export function dashboardColumns(
  stockIds: string[],
  latest: Array<StoredInvoice & Pick<MatchedInvoice, 'stockId'>>,
  repeating: StockRepeatingInvoice[],
  links: AccountingLinks,
  now: Date,
): DashboardColumns {
  const out: DashboardColumns = {};
  for (const id of stockIds) out[id] = { invoice: null, repeatingInvoice: null };
  for (const i of latest) if (i.stockId && out[i.stockId]) out[i.stockId].invoice = dashboardInvoice(i, now);
  for (const r of repeating)
    if (r.stockId && out[r.stockId]) out[r.stockId].repeatingInvoice = dashboardRepeating(r, links);
  return out;
}

/** A stock's Invoices tab: its invoices, its repeating invoice and the selector's choices, its contact. */
export function stockInvoiceData(
  input: {
    stock: Pick<ProjectedStock, 'id' | 'combinedTicker' | 'accountingReference'>;
    invoices: MatchedInvoice[];
    /** The stock's repeating invoice, if it has one. */
    repeating: RepeatingInvoiceRecord | undefined;
    options: RepeatingInvoiceRecord[];
    contactId: string | null;
    syncedAt: SyncState['syncedAt'];
  },
  links: AccountingLinks,
  now: Date,
): StockInvoiceDataDto {
  return {
    stockId: input.stock.id,
    combinedTicker: input.stock.combinedTicker,
    repeatingInvoiceId: input.repeating?.id ?? null,
    invoices: input.invoices.map((i) => invoiceDto(i, links, now)),
    repeatingInvoices: input.options.map((r) => repeatingDto(r, links)),
    contactId: input.contactId,
    reference: input.stock.accountingReference,
    defaultRepeatingAmount: DEFAULT_REPEATING_AMOUNT,
    syncedAt: input.syncedAt?.toISOString() ?? null,
  };
}

/** An invoice line of the accounting page: its id, text, link and the stock staff gave it by hand. */
export const accountingLine = (
  i: MatchedInvoice,
  links: AccountingLinks,
): AccountingPageDto['invoices'][number] => ({
  invoiceID: i.invoiceId,
  text: invoiceText(i),
  url: links.invoice(i.invoiceId),
  ticker: i.assignedTicker,
});

/**
 * The accounting page: unassigned repeating invoices, the first page of the unassigned and of the ignored
 * invoices with where each continues, the stocks to choose.
 */
export function accountingPage(
  input: {
    repeating: RepeatingInvoiceRecord[];
    unassigned: { rows: MatchedInvoice[]; next: string | null };
    ignored: { rows: MatchedInvoice[]; next: string | null };
    stocks: StockOption[];
    syncedAt: SyncState['syncedAt'];
  },
  links: AccountingLinks,
): AccountingPageDto {
  return {
    repeatingInvoices: input.repeating.map((r) => ({
      id: r.id,
      text: repeatingText(r),
      url: links.repeatingInvoice(r.id),
    })),
    invoices: input.unassigned.rows.map((i) => accountingLine(i, links)),
    invoicesNext: input.unassigned.next,
    ignored: input.ignored.rows.map((i) => accountingLine(i, links)),
    ignoredNext: input.ignored.next,
    stocks: input.stocks.map((s) => ({ ticker: s.combinedTicker, label: stockOptionLabel(s) })),
    syncedAt: input.syncedAt?.toISOString() ?? null,
  };
}

/** A stock's contact in the accounting system: named as its company, with the first of its contact emails. */
export const newContact = (
  stock: Pick<ProjectedStock, 'companyName' | 'combinedTicker' | 'contactEmail'>,
): { name: string; email: string } => ({
  name: companyNameOf(stock),
  email: stock.contactEmail.split(/[,;]/)[0]?.trim() ?? '',
});

/**
 * A yearly repeating invoice of the amount (cents, excluding GST; GST added by the accounting system),
 * referenced by the stock's accounting reference (its ticker without one) so its invoices match the stock,
 * starting on the stock's billing date (today when that is past), due PAYMENT_DUE_DAYS after each invoice.
 */
export function yearlySubscription(
  stock: Pick<ProjectedStock, 'companyName' | 'combinedTicker' | 'accountingReference' | 'billingDate'>,
  amountCents: number,
  now: Date,
): Omit<NewRepeatingInvoice, 'contactId' | 'accountCode'> {
  const billingDay = /^\d{4}-\d{2}-\d{2}/.test(stock.billingDate) ? stock.billingDate.slice(0, 10) : '';
  const today = isoDayOf(now);
  return {
    reference: stock.accountingReference.trim() || stock.combinedTicker,
    description: `IR Portal annual subscription: ${companyNameOf(stock)} (${stock.combinedTicker})`,
    unitAmount: toDollars(amountCents),
    startDate: billingDay > today ? billingDay : today,
    dueDays: PAYMENT_DUE_DAYS,
  };
}

/** The PDF's file name: the invoice number (else its id) with only safe characters. */
export const pdfFileName = (i: Pick<StoredInvoice, 'invoiceNumber' | 'invoiceId'>): string =>
  `${(i.invoiceNumber || i.invoiceId).replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
