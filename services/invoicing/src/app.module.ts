import { defineService, stockProjectionRole } from '@irp/platform';
import { AccountingSync } from './accounting/accounting-sync';
import { Accounting } from './accounting/accounting.provider';
import { invoicingConfigSchema } from './config';
import { CreateInvoicing1795816586699 } from './database/migrations/1795816586699-CreateInvoicing';
import { CreateInvoices1796300000000 } from './database/migrations/1796300000000-CreateInvoices';
import { InvoicesRepository } from './invoices/invoices.repository';
import { InvoicesService } from './invoices/invoices.service';
import { InvoicingHandlers } from './invoices/invoicing.handlers';
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
  database: {
    entities: [StockProjectionEntity],
    migrations: [CreateInvoicing1795816586699, CreateInvoices1796300000000],
  },
  providers: [StockProjectionService, InvoicesRepository, Accounting, AccountingSync, InvoicesService],
  roles: {
    api: { handlers: [...stockProjection.handlers, InvoicingHandlers], providers: stockProjection.providers },
  },
});
