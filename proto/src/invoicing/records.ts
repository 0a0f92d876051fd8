import { z } from 'zod';
import { ForeignPageCursorSchema } from '../common/paging';

/**
 * The invoicing service's records as the REST routes and its messages carry them (spec section 3:
 * Invoice, Repeating invoice, Per-stock invoice data, Accounting page). Money is kept in integer cents;
 * `total` and `amountDue` are the same amounts in dollars, as the accounting system shows them.
 */

/** One invoice of the accounting system (an ACCREC sales invoice), with proto's overdue rule applied. */
export const InvoiceSchema = z.object({
  invoiceID: z.string(),
  invoiceNumber: z.string(),
  /** The accounting system's status: DRAFT, SUBMITTED, AUTHORISED, PAID, VOIDED or DELETED. */
  status: z.string(),
  totalCents: z.number().int(),
  amountDueCents: z.number().int(),
  /** Dollars (totalCents / 100). */
  total: z.number(),
  /** ISO day of the invoice. */
  date: z.string(),
  dueDate: z.string().nullable(),
  reference: z.string(),
  contactName: z.string(),
  repeatingInvoiceID: z.string().nullable(),
  /** Not PAID and something still due. */
  unpaid: z.boolean(),
  /** invoiceStanding(): unpaid and more than 90 days since the invoice date. */
  overdue: z.boolean(),
  daysLate: z.number().int(),
  /** The invoice in the accounting system's own web app (null when none is configured). */
  url: z.string().nullable(),
  /**
   * Given to the stock by hand (the accounting page or saveInvoiceData), not matched by its reference: the
   * Invoices tab can unassign it.
   */
  assigned: z.boolean(),
});
export type InvoiceDto = z.infer<typeof InvoiceSchema>;

export const RepeatingInvoiceSchema = z.object({
  id: z.string(),
  /** One line for a selector: reference, contact, amount and schedule. */
  text: z.string(),
  reference: z.string(),
  contactName: z.string(),
  /** AUTHORISED (running) or DRAFT. */
  status: z.string(),
  totalCents: z.number().int(),
  /** Dollars, GST included. */
  total: z.number(),
  schedule: z.object({
    period: z.number().int(),
    unit: z.string(),
    /** ISO day, null once the schedule has ended. */
    nextScheduledDate: z.string().nullable(),
  }),
  url: z.string().nullable(),
});
export type RepeatingInvoiceDto = z.infer<typeof RepeatingInvoiceSchema>;

/** GET /api/admin/invoices?ticker: a stock's invoice data (spec: "Per-stock invoice data"). */
export const StockInvoiceDataSchema = z.object({
  stockId: z.string().uuid(),
  combinedTicker: z.string(),
  /** The stock's repeating invoice: chosen on the Invoices tab, else the one its reference matches. */
  repeatingInvoiceId: z.string().nullable(),
  /** The stock's invoices, newest first (matched by reference or assigned). */
  invoices: z.array(InvoiceSchema),
  /** What the repeating-invoice selector offers: the stock's own and the unassigned ones. */
  repeatingInvoices: z.array(RepeatingInvoiceSchema),
  /** The stock's contact in the accounting system (Create Contact sets it). */
  contactId: z.string().nullable(),
  /** The stock's accounting reference (matched against each invoice's Reference). */
  reference: z.string(),
  /** What Create Repeating Invoice proposes, in dollars excluding GST (spec section 9: 1800). */
  defaultRepeatingAmount: z.number().int(),
  /** When invoices were last read from the accounting system (ISO), null before the first sync. */
  syncedAt: z.string().nullable(),
});
export type StockInvoiceDataDto = z.infer<typeof StockInvoiceDataSchema>;

/** An invoice line of the accounting page: its id, a display text and its link. */
export const AccountingPageInvoiceSchema = z.object({
  invoiceID: z.string(),
  text: z.string(),
  url: z.string().nullable(),
  /** The stock staff assigned it to (ticker:exchange), null when unset or ignored. */
  ticker: z.string().nullable(),
});

/** A stock the accounting page's select offers (stocks with an API key), labelled as the spec says. */
export const AccountingStockOptionSchema = z.object({
  /** ticker:exchange, what an assignment sends. */
  ticker: z.string(),
  label: z.string(),
});

/**
 * The accounting page's two invoice lists (unassigned and ignored, each oldest first) grow with every invoice
 * no stock's reference matches, so each is read a page at a time (common/paging.ts): the page carries the
 * first ACCOUNTING_INVOICE_PAGE_SIZE of each, and GET /api/admin/accountingInvoices/{list}?after={next}
 * the ACCOUNTING_INVOICE_PAGE_MAX after them.
 */
export const ACCOUNTING_INVOICE_PAGE_SIZE = 200;
/** The largest page of an invoice list a request may ask for. */
export const ACCOUNTING_INVOICE_PAGE_MAX = 2_000;

/** The accounting page's invoice lists: `unassigned` (the page's `invoices`) and `ignored`. */
export const AccountingInvoiceListSchema = z.enum(['unassigned', 'ignored']);
export type AccountingInvoiceList = z.infer<typeof AccountingInvoiceListSchema>;

/** The accounting page (spec section 3): repeatingInvoices, invoices, ignored, plus the select's stocks. */
export const AccountingPageSchema = z.object({
  repeatingInvoices: z.array(z.object({ id: z.string(), text: z.string(), url: z.string().nullable() })),
  /** The oldest unassigned invoices (a first page). */
  invoices: z.array(AccountingPageInvoiceSchema),
  /** Where the unassigned invoices after `invoices` continue (`after`), null when none follow. */
  invoicesNext: ForeignPageCursorSchema.nullable(),
  /** The oldest ignored invoices (a first page). */
  ignored: z.array(AccountingPageInvoiceSchema),
  /** Where the ignored invoices after `ignored` continue, null when none follow. */
  ignoredNext: ForeignPageCursorSchema.nullable(),
  stocks: z.array(AccountingStockOptionSchema),
  syncedAt: z.string().nullable(),
});
export type AccountingPageDto = z.infer<typeof AccountingPageSchema>;

/** A later page of one of the accounting page's invoice lists, and where the next starts (null: the last). */
export const AccountingInvoicePageSchema = z.object({
  invoices: z.array(AccountingPageInvoiceSchema),
  next: ForeignPageCursorSchema.nullable(),
});
export type AccountingInvoicePageDto = z.infer<typeof AccountingInvoicePageSchema>;
