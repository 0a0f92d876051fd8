import { defineService, stockProjectionRole } from '@irp/platform';
import { AccountingSync } from './invoices/accounting-sync';
import { Accounting } from './accounting/accounting.provider';
import { SyncStateEntity } from './accounting/sync-state.entity';
import { SyncStateRepository } from './accounting/sync-state.repository';
import { invoicingConfigSchema, refineInvoicingConfig } from './config';
import { CreateInvoicing1795816586699 } from './database/migrations/1795816586699-CreateInvoicing';
import { CreateInvoices1796300000000 } from './database/migrations/1796300000000-CreateInvoices';
import { AccountingLinksProvider } from './invoices/accounting-links.provider';
import { AssignInvoices } from './invoices/assign-invoices';
import { AssignmentEntity } from './invoices/assignment.entity';
import { AssignmentsRepository } from './invoices/assignments.repository';
import { ComposeReminderEmail } from './invoices/compose-reminder-email';
import { CreateContact } from './invoices/create-contact';
import { CreateRepeatingInvoice } from './invoices/create-repeating-invoice';
import { FetchInvoicePdf } from './invoices/fetch-invoice-pdf';
import { InvoiceEntity } from './invoices/invoice.entity';
import { InvoicesRepository } from './invoices/invoices.repository';
import { InvoicingHandlers } from './invoices/invoicing.handlers';
import { ReadAccountingPage } from './invoices/read-accounting-page';
import { ReadDashboardColumns } from './invoices/read-dashboard-columns';
import { ReadStockInvoices } from './invoices/read-stock-invoices';
import { RefreshAccounting } from './invoices/refresh-accounting';
import { RepeatingInvoiceEntity } from './invoices/repeating-invoice.entity';
import { RepeatingInvoicesRepository } from './invoices/repeating-invoices.repository';
import { SaveInvoiceData } from './invoices/save-invoice-data';
import { StockBillingEntity } from './invoices/stock-billing.entity';
import { StockBillingRepository } from './invoices/stock-billing.repository';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';

/** `stock.upserted` and the bootstrap / drift repair from `stocks.list`, in the api role. */
const stockProjection = stockProjectionRole(StockProjectionService);

/**
 * The invoicing service (DESIGN.md): invoices and repeating invoices read from the accounting system
 * (scheduled incremental sync and 'Refresh Accounting'), matched to stocks by accounting reference then by
 * staff's assignment; the dashboards' invoice and repeat columns; contacts, repeating invoices, reminder
 * mails and invoice PDFs. One role, `api`: the sync is a singleton job, so any number of instances is fine.
 */
export const invoicingService = defineService({
  name: 'invoicing',
  config: invoicingConfigSchema,
  refineConfig: refineInvoicingConfig,
  database: {
    entities: [
      StockProjectionEntity,
      InvoiceEntity,
      RepeatingInvoiceEntity,
      AssignmentEntity,
      StockBillingEntity,
      SyncStateEntity,
    ],
    migrations: [CreateInvoicing1795816586699, CreateInvoices1796300000000],
  },
  providers: [
    StockProjectionService,
    InvoicesRepository,
    RepeatingInvoicesRepository,
    AssignmentsRepository,
    StockBillingRepository,
    SyncStateRepository,
    Accounting,
    AccountingSync,
    AccountingLinksProvider,
    ReadDashboardColumns,
    ReadStockInvoices,
    SaveInvoiceData,
    ReadAccountingPage,
    RefreshAccounting,
    AssignInvoices,
    CreateContact,
    CreateRepeatingInvoice,
    ComposeReminderEmail,
    FetchInvoicePdf,
  ],
  roles: {
    api: { handlers: [...stockProjection.handlers, InvoicingHandlers], providers: stockProjection.providers },
  },
});
