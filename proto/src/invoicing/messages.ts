import { z } from 'zod';
import { foreignNextPageField, ForeignPageCursorSchema, pageRequestFields } from '../common/paging';
import { DashboardInvoiceSchema, DashboardRepeatingInvoiceSchema } from '../common/dashboard';
import { StockId } from '../common/session';
import { ActorSchema } from '../stocks/stock';
import {
  ACCOUNTING_INVOICE_PAGE_MAX,
  AccountingInvoiceListSchema,
  AccountingPageInvoiceSchema,
  AccountingPageSchema,
  RepeatingInvoiceSchema,
  StockInvoiceDataSchema,
} from './records';

/**
 * Request/reply messages of the invoicing service. The gateway has checked roles; stocks are named by
 * combinedTicker or id (the service keeps its own projection of the stocks from `stock.upserted`). An
 * accounting-system error comes back as BAD_REQUEST (its validation message), NOT_FOUND, or
 * SERVICE_UNAVAILABLE (the system could not be reached or stayed busy), never as INTERNAL.
 */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

/** The dashboards' invoice and repeat columns of many stocks at once. */
export const InvoicingDashboardRequestSchema = z.object({
  stockIds: z.array(StockId).max(100_000),
  /** The staff dashboard's date range: the latest invoice dated on or before its end is shown. */
  range: z.object({ startDate: z.string().regex(ISO_DAY), endDate: z.string().regex(ISO_DAY) }).optional(),
});
export const InvoicingDashboardReplySchema = z.object({
  stocks: z.record(
    StockId,
    z.object({
      invoice: DashboardInvoiceSchema.nullable(),
      repeatingInvoice: DashboardRepeatingInvoiceSchema.nullable(),
    }),
  ),
});

export const StockInvoicesRequestSchema = z.object({ combinedTicker: z.string().min(1).max(40) });
export const StockInvoicesReplySchema = StockInvoiceDataSchema;

export const SaveStockInvoicesRequestSchema = z.object({
  actor: ActorSchema,
  combinedTicker: z.string().min(1).max(40),
  /** Left out: the stock's repeating invoice choice stays as it is. */
  repeatingInvoiceId: z.string().max(64).nullable().optional(),
  /** Left out: the stock's assignments stay as they are. */
  invoices: z.array(z.string().max(64)).max(10_000).optional(),
});

export const AccountingPageRequestSchema = z.object({});
export const AccountingPageReplySchema = AccountingPageSchema;

/** A page of one of the accounting page's invoice lists, oldest first (common/paging.ts). */
export const AccountingInvoicesRequestSchema = z.object({
  list: AccountingInvoiceListSchema,
  ...pageRequestFields(ACCOUNTING_INVOICE_PAGE_MAX, ForeignPageCursorSchema),
});
export const AccountingInvoicesReplySchema = z.object({
  invoices: z.array(AccountingPageInvoiceSchema),
  /** Where the next page starts (`after`), or null when this page was the last. */
  next: foreignNextPageField,
});

/** 'Refresh Accounting': the invoices changed since the last sync and every repeating invoice, then the page. */
export const RefreshAccountingRequestSchema = z.object({ actor: ActorSchema });

export const AssignInvoicesRequestSchema = z.object({
  actor: ActorSchema,
  items: z
    .array(
      z.object({
        invoiceId: z.string().max(64),
        ignore: z.boolean().optional(),
        ticker: z.string().max(40).nullish(),
      }),
    )
    .max(10_000),
});

export const CreateContactRequestSchema = z.object({ actor: ActorSchema, stockId: StockId });
export const CreateContactReplySchema = z.object({ contactId: z.string() });

export const CreateRepeatingInvoiceRequestSchema = z.object({
  actor: ActorSchema,
  stockId: StockId,
  amountCents: z.number().int().positive(),
});
export const CreateRepeatingInvoiceReplySchema = z.object({ repeatingInvoice: RepeatingInvoiceSchema });

export const ReminderEmailRequestSchema = z.object({ combinedTicker: z.string().min(1).max(40) });
export const ReminderEmailReplySchema = z.object({
  html: z.string(),
  subject: z.string(),
  unpaidCount: z.number().int(),
});

export const InvoicePdfRequestSchema = z.object({
  combinedTicker: z.string().min(1).max(40),
  invoiceId: z.string().max(64),
  /**
   * The stock whose role the gateway checked (absent for a holder of a global role): the service reads that
   * stock's invoices only, a ticker naming another stock here is not found.
   */
  checkedStockId: StockId.optional(),
});
export const InvoicePdfReplySchema = z.object({
  fileName: z.string(),
  /** The PDF, base64. */
  pdf: z.string(),
});
