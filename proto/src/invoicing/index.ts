import { defineServiceContract } from '../common/contract';
import { invoicingRoutes } from './routes';
import {
  AccountingInvoicesReplySchema,
  AccountingInvoicesRequestSchema,
  AccountingPageReplySchema,
  AccountingPageRequestSchema,
  AssignInvoicesRequestSchema,
  CreateContactReplySchema,
  CreateContactRequestSchema,
  CreateRepeatingInvoiceReplySchema,
  CreateRepeatingInvoiceRequestSchema,
  InvoicePdfReplySchema,
  InvoicePdfRequestSchema,
  InvoicingDashboardReplySchema,
  InvoicingDashboardRequestSchema,
  RefreshAccountingRequestSchema,
  ReminderEmailReplySchema,
  ReminderEmailRequestSchema,
  SaveStockInvoicesRequestSchema,
  StockInvoicesReplySchema,
  StockInvoicesRequestSchema,
} from './messages';

export * from './messages';
export * from './records';
export * from './rest';
export * from './routes';

/**
 * The invoicing service: invoices and repeating invoices read from the accounting system, matched to stocks
 * (by the stock's accounting reference, then by staff's assignment), the dashboards' invoice and repeat
 * columns, contacts and repeating invoices created in the accounting system, reminder mails and invoice
 * PDFs. Consumes `stock.upserted`.
 */
export const invoicingContract = defineServiceContract({
  service: 'invoicing',
  routes: invoicingRoutes,
  requests: {
    InvoicingDashboard: {
      topic: 'invoicing.dashboard',
      request: InvoicingDashboardRequestSchema,
      reply: InvoicingDashboardReplySchema,
    },
    InvoicingStockInvoices: {
      topic: 'invoicing.stock-invoices',
      request: StockInvoicesRequestSchema,
      reply: StockInvoicesReplySchema,
    },
    InvoicingSaveStockInvoices: {
      topic: 'invoicing.save-stock-invoices',
      request: SaveStockInvoicesRequestSchema,
      reply: StockInvoicesReplySchema,
      mutates: true,
    },
    InvoicingAccountingPage: {
      topic: 'invoicing.accounting-page',
      request: AccountingPageRequestSchema,
      reply: AccountingPageReplySchema,
    },
    InvoicingAccountingInvoices: {
      topic: 'invoicing.accounting-invoices',
      request: AccountingInvoicesRequestSchema,
      reply: AccountingInvoicesReplySchema,
    },
    InvoicingRefresh: {
      topic: 'invoicing.refresh',
      request: RefreshAccountingRequestSchema,
      reply: AccountingPageReplySchema,
      mutates: true,
    },
    InvoicingAssign: {
      topic: 'invoicing.assign',
      request: AssignInvoicesRequestSchema,
      reply: AccountingPageReplySchema,
      mutates: true,
    },
    InvoicingCreateContact: {
      topic: 'invoicing.create-contact',
      request: CreateContactRequestSchema,
      reply: CreateContactReplySchema,
      mutates: true,
    },
    InvoicingCreateRepeatingInvoice: {
      topic: 'invoicing.create-repeating-invoice',
      request: CreateRepeatingInvoiceRequestSchema,
      reply: CreateRepeatingInvoiceReplySchema,
      mutates: true,
    },
    InvoicingReminderEmail: {
      topic: 'invoicing.reminder-email',
      request: ReminderEmailRequestSchema,
      reply: ReminderEmailReplySchema,
    },
    InvoicingInvoicePdf: {
      topic: 'invoicing.invoice-pdf',
      request: InvoicePdfRequestSchema,
      reply: InvoicePdfReplySchema,
    },
  },
  events: {},
});
