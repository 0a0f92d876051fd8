import { GlobalRole, StockRole } from '../common/roles';
import { access, defineRoutes } from '../common/routes';
import { FileResponseSchema, NoBodySchema } from '../common/rest';
import { AccountingInvoicePageSchema, AccountingPageSchema, StockInvoiceDataSchema } from './records';
import {
  AccountingInvoicesParamsSchema,
  AccountingInvoicesQuerySchema,
  AssignInvoicesBodySchema,
  CreateContactQuerySchema,
  CreateContactResponseSchema,
  CreateRepeatingInvoiceBodySchema,
  CreateRepeatingInvoiceResponseSchema,
  InvoiceDownloadQuerySchema,
  InvoiceTickerParamsSchema,
  InvoiceTickerQuerySchema,
  ReminderEmailParamsSchema,
  ReminderEmailResponseSchema,
  SaveInvoiceDataBodySchema,
} from './rest';

/** The Invoices tab's readers and writers: InvoiceTotal holders (spec section 6) and admins. */
const INVOICES_TAB = access.roles(GlobalRole.InvoiceTotal);

/**
 * The invoicing routes (docs/api/invoicing.md): spec section 7's Invoicing calls. The accounting page's
 * paths carry the accounting system's kind ("accounting") where the spec says they carry its name.
 */
export const invoicingRoutes = defineRoutes('invoicing', {
  invoices: {
    method: 'GET',
    path: '/api/admin/invoices',
    access: INVOICES_TAB,
    summary:
      "A stock's invoice data: its invoices, repeating invoice, selector options, contact and reference",
    query: InvoiceTickerQuerySchema,
    response: StockInvoiceDataSchema,
  },
  saveInvoiceData: {
    method: 'POST',
    path: '/api/admin/saveInvoiceData/{ticker}',
    access: INVOICES_TAB,
    summary: "Save a stock's repeating invoice choice and the invoices assigned to it by hand",
    description:
      "The spec's `Ticker`, `RepeatingInvoiceId` and `Invoices` are read in any case; `Invoices` as ids or as " +
      'the invoices GET /api/admin/invoices read (their invoiceID taken). A field left out stays as it is. ' +
      'A Ticker naming another stock than the path, an unknown field, repeating invoice or invoice id is ' +
      'refused with 400 naming it; nothing is saved then.',
    params: InvoiceTickerParamsSchema,
    body: SaveInvoiceDataBodySchema,
    response: StockInvoiceDataSchema,
  },
  accountingPage: {
    method: 'GET',
    path: '/api/admin/accountingInvoices',
    // Read by the Invoices tab too: its holders assign one of the unassigned invoices to the stock.
    access: INVOICES_TAB,
    summary: 'The accounting page: unassigned repeating invoices, unassigned invoices, ignored invoices',
    response: AccountingPageSchema,
  },
  accountingInvoices: {
    method: 'GET',
    path: '/api/admin/accountingInvoices/{list}',
    access: INVOICES_TAB,
    summary:
      "The accounting page's unassigned or ignored invoices after `after` (the page's invoicesNext or ignoredNext, then each page's next), oldest first",
    description:
      'Each list is paged (docs/api/invoicing.md): the accounting page carries the first 200 of each, this ' +
      'route the 2,000 after a cursor. A cursor naming no invoice the accounting system has is 404.',
    params: AccountingInvoicesParamsSchema,
    query: AccountingInvoicesQuerySchema,
    response: AccountingInvoicePageSchema,
  },
  refreshAccounting: {
    method: 'POST',
    path: '/api/admin/refreshAccounting',
    access: access.admin(),
    summary:
      "'Refresh Accounting': read the invoices changed since the last sync and every repeating invoice, then the page",
    description:
      'The accounting system unreachable or over its limits: 503 with its message; what was read before stays.',
    body: NoBodySchema,
    response: AccountingPageSchema,
  },
  assignInvoices: {
    method: 'POST',
    path: '/api/admin/assignAccountingInvoices',
    access: access.admin(),
    summary:
      "'Assign Invoices': each item gives an invoice a stock (ticker:exchange), ignores it, or unsets it",
    description:
      'An unknown invoice id or ticker is refused with 400 naming it, and no choice of the request is saved.',
    body: AssignInvoicesBodySchema,
    response: AccountingPageSchema,
  },
  createContact: {
    method: 'POST',
    path: '/api/admin/createContact',
    access: INVOICES_TAB,
    summary: "Create the stock's contact in the accounting system (its company name and contact email)",
    description: "The accounting system's refusal (e.g. a duplicate name) is success false with its message.",
    query: CreateContactQuerySchema,
    body: NoBodySchema,
    response: CreateContactResponseSchema,
    refusal: 'errorMessage',
  },
  createRepeatingInvoice: {
    method: 'POST',
    path: '/api/admin/createRepeatingInvoice',
    access: INVOICES_TAB,
    summary: 'Create a yearly repeating invoice for the stock: amount in dollars excluding GST, GST added',
    description:
      "The accounting system's refusal is success false with its message (the tab shows 'Unable to create repeating invoice: {message}').",
    body: CreateRepeatingInvoiceBodySchema,
    response: CreateRepeatingInvoiceResponseSchema,
    refusal: 'errorMessage',
  },
  reminderEmail: {
    method: 'GET',
    path: '/api/admin/accountingReminderEmail/{combinedTicker}',
    access: access.admin(),
    summary: "The HTML of a reminder mail listing the stock's unpaid invoices (the dashboard copies it)",
    params: ReminderEmailParamsSchema,
    response: ReminderEmailResponseSchema,
  },
  invoiceDownload: {
    method: 'GET',
    path: '/api/invoice',
    access: access.stock([StockRole.Invoicing], { from: 'query', key: 'ticker' }, [GlobalRole.InvoiceTotal]),
    summary: "An invoice's PDF from the accounting system, opened as a link",
    description: "Only an invoice of the named stock: another stock's invoice id is 404.",
    query: InvoiceDownloadQuerySchema,
    response: FileResponseSchema,
    produces: {
      mediaType: 'application/pdf',
      description: 'the invoice as the accounting system renders it',
    },
  },
});
