import { z } from 'zod';
import { keysInAnyCase } from '../common/rest';
import { StockId } from '../common/session';
import { ForeignPageCursorSchema } from '../common/paging';
import { AccountingInvoiceListSchema, RepeatingInvoiceSchema } from './records';

/**
 * REST shapes of the invoicing routes (docs/api/invoicing.md) that are not records: the bodies and the
 * answers of the actions. Shapes only; the rules and messages are the service's.
 */

const combinedTicker = z
  .string({ required_error: 'ticker is required', invalid_type_error: 'ticker must be text' })
  .trim()
  .min(1, 'ticker is required')
  .max(40, 'ticker must be at most 40 characters')
  .describe('ticker:exchange, e.g. BHP:ASX');

const accountingId = (name: string, typeMessage = `${name} must be text`) =>
  z
    .string({ required_error: `${name} is required`, invalid_type_error: typeMessage })
    .trim()
    .min(1, `${name} is required`)
    .max(64, `${name} must be at most 64 characters`)
    .regex(/^[A-Za-z0-9-]+$/, `${name} must be an accounting system id (letters, digits and -)`);

/** `?ticker`: the stock, as ticker:exchange. */
export const InvoiceTickerQuerySchema = z.object({ ticker: combinedTicker });

/** `/{ticker}` of saveInvoiceData. */
export const InvoiceTickerParamsSchema = z.object({ ticker: combinedTicker });

/**
 * An invoice of saveInvoiceData's `invoices`: its id, or the invoice as GET /api/admin/invoices?ticker reads
 * it (a client of the spec sends back what it read), whose `invoiceID` (any case) is taken.
 */
const invoiceRef = z.preprocess(
  (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const id = Object.entries(value).find(([key]) => key.toLowerCase() === 'invoiceid');
    return id ? id[1] : value;
  },
  accountingId('an invoice id', 'each invoice must be an invoice id or an invoice with its invoiceID'),
) as unknown as z.ZodEffects<z.ZodString, string, string | { invoiceID: string }>;

/**
 * POST /api/admin/saveInvoiceData/{ticker} (spec section 7: "Ticker, repeating invoice id, Invoices"): the
 * stock's repeating invoice and the invoices assigned to it. The keys are read in any case (`Ticker`,
 * `RepeatingInvoiceId` or `repeatingInvoiceID`, `Invoices`); any other key is refused naming it.
 */
export const SaveInvoiceDataBodySchema = keysInAnyCase(
  z
    .object({
      /** The path's stock again (ticker:exchange, or the bare ticker); another stock is refused. */
      ticker: combinedTicker.optional(),
      /** null: no repeating invoice chosen (its reference's is used); left out: the choice stays. */
      repeatingInvoiceId: accountingId('repeatingInvoiceId').nullable().optional(),
      /**
       * The invoices assigned to this stock by hand, replacing its earlier ones (those matched by its
       * reference need not be listed), as ids or as the invoices read; left out, the assignments stay.
       */
      invoices: z.array(invoiceRef).max(10_000, 'at most 10,000 invoices').optional(),
    })
    .strict(),
);

/** One choice of the accounting page: an invoice to a stock, to the ignored list, or back to unset. */
export const AssignmentItemSchema = z
  .object({
    invoiceId: accountingId('invoiceId'),
    ignore: z.boolean().optional(),
    ticker: combinedTicker.nullish(),
  })
  .refine((i) => !(i.ignore && i.ticker), { message: 'an invoice is either ignored or given a ticker' });

/** The invoice ids (any case) that a list of choices names more than once, each once, lower-cased. */
export function repeatedInvoiceIds(items: ReadonlyArray<{ invoiceId: string }>): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { invoiceId } of items) {
    const id = invoiceId.trim().toLowerCase();
    (seen.has(id) ? repeated : seen).add(id);
  }
  return [...repeated];
}

/**
 * The refusal of choices naming an invoice twice: which stock it goes to would be a guess (the fuzz suite's
 * 10,000-item list answered 500, the database refusing one row written twice: issue 34).
 */
export const repeatedInvoicesMessage = (ids: string[]): string =>
  `Choose once for each invoice: ${ids.slice(0, 5).join(', ')} ${ids.length === 1 ? 'is' : 'are'} given more than once`;

export const AssignInvoicesBodySchema = z
  .object({
    items: z.array(AssignmentItemSchema).max(10_000),
  })
  .superRefine(({ items }, ctx) => {
    const repeated = repeatedInvoiceIds(items);
    if (repeated.length)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['items'],
        message: repeatedInvoicesMessage(repeated),
      });
  });

/** POST /api/admin/createContact?id: the stock id. */
/** `/{list}` of GET /api/admin/accountingInvoices/{list}: the accounting page's invoice list to read on. */
export const AccountingInvoicesParamsSchema = z.object({
  list: z.enum(AccountingInvoiceListSchema.options, {
    errorMap: () => ({ message: 'list must be unassigned or ignored' }),
  }),
});
/** `?after={next}`: the page after a previous page's last invoice (its `next`, or the page's `invoicesNext`). */
export const AccountingInvoicesQuerySchema = z.object({
  after: ForeignPageCursorSchema.describe("a previous page's `next`"),
});

export const CreateContactQuerySchema = z.object({ id: StockId });
export const CreateContactResponseSchema = z.object({
  success: z.boolean(),
  contactId: z.string().nullable(),
  errorMessage: z.string().nullable(),
});

/** POST /api/admin/createRepeatingInvoice: the stock id and the yearly amount in dollars excluding GST. */
export const CreateRepeatingInvoiceBodySchema = z
  .object({
    id: StockId,
    amount: z.coerce
      .number({ invalid_type_error: 'amount must be a number' })
      .finite('amount must be a number')
      // Kept in cents: less than a cent was no amount (0.001 reached the service as 0 cents: issue 34).
      .min(0.01, 'amount must be at least 0.01')
      .max(1_000_000, 'amount must be at most 1,000,000'),
  })
  .strict();
export const CreateRepeatingInvoiceResponseSchema = z.object({
  success: z.boolean(),
  repeatingInvoice: RepeatingInvoiceSchema.nullable(),
  errorMessage: z.string().nullable(),
});

/** GET /api/admin/accountingReminderEmail/{combinedTicker}: a reminder mail of the stock's unpaid invoices. */
export const ReminderEmailParamsSchema = z.object({ combinedTicker: combinedTicker });
export const ReminderEmailResponseSchema = z.object({
  html: z.string(),
  subject: z.string(),
  /** How many unpaid invoices it lists. */
  unpaidCount: z.number().int(),
});

/** GET /api/invoice?ticker&invoiceId: the invoice's PDF from the accounting system. */
export const InvoiceDownloadQuerySchema = z.object({
  ticker: combinedTicker,
  invoiceId: accountingId('invoiceId'),
});
