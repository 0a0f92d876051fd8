import { HandleRequest, HandledRequest, requireAdminActor, requireGlobalRoleOf } from '@irp/platform';
import { ACCOUNTING_INVOICE_PAGE_MAX, GlobalRole, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AssignInvoices } from './assign-invoices';
import { ComposeReminderEmail } from './compose-reminder-email';
import { CreateContact } from './create-contact';
import { CreateRepeatingInvoice } from './create-repeating-invoice';
import { FetchInvoicePdf } from './fetch-invoice-pdf';
import { ReadAccountingPage } from './read-accounting-page';
import { ReadDashboardColumns } from './read-dashboard-columns';
import { ReadStockInvoices } from './read-stock-invoices';
import { RefreshAccounting } from './refresh-accounting';
import { SaveInvoiceData } from './save-invoice-data';

/** The Invoices tab's role (Admin holds it too), as the route table asks for it. */
const INVOICES_TAB = [GlobalRole.InvoiceTotal];

/**
 * Kafka entry points of invoicing; each calls its use case (a file of the same name), the rules live in
 * invoice-rules.ts. A change re-checks the signed actor's role itself (issue 34): the gateway's route guard
 * checks first, but anything that can write to the broker with a signed actor must not need more.
 */
@Controller()
export class InvoicingHandlers {
  constructor(
    private readonly columns: ReadDashboardColumns,
    private readonly invoiceData: ReadStockInvoices,
    private readonly saving: SaveInvoiceData,
    private readonly page: ReadAccountingPage,
    private readonly refreshing: RefreshAccounting,
    private readonly assigning: AssignInvoices,
    private readonly contacts: CreateContact,
    private readonly repeatingInvoices: CreateRepeatingInvoice,
    private readonly reminders: ComposeReminderEmail,
    private readonly pdfs: FetchInvoicePdf,
  ) {}

  @HandleRequest(Topics.InvoicingDashboard)
  async dashboard(@Payload() req: HandledRequest<typeof Topics.InvoicingDashboard>) {
    return { stocks: await this.columns.read(req.stockIds, req.range) };
  }

  @HandleRequest(Topics.InvoicingStockInvoices)
  stockInvoices(@Payload() req: HandledRequest<typeof Topics.InvoicingStockInvoices>) {
    return this.invoiceData.read(req.combinedTicker);
  }

  @HandleRequest(Topics.InvoicingSaveStockInvoices)
  saveStockInvoices(@Payload() req: HandledRequest<typeof Topics.InvoicingSaveStockInvoices>) {
    requireGlobalRoleOf(req.actor, INVOICES_TAB, "save a stock's invoices");
    return this.saving.save(req);
  }

  @HandleRequest(Topics.InvoicingAccountingPage)
  accountingPage() {
    return this.page.read();
  }

  @HandleRequest(Topics.InvoicingAccountingInvoices)
  accountingInvoices(@Payload() req: HandledRequest<typeof Topics.InvoicingAccountingInvoices>) {
    return this.page.invoicePage(req.list, {
      limit: req.limit ?? ACCOUNTING_INVOICE_PAGE_MAX,
      after: req.after,
    });
  }

  @HandleRequest(Topics.InvoicingRefresh)
  refresh(@Payload() req: HandledRequest<typeof Topics.InvoicingRefresh>) {
    requireAdminActor(req.actor, 'refresh the accounting data');
    return this.refreshing.refresh();
  }

  @HandleRequest(Topics.InvoicingAssign)
  assign(@Payload() req: HandledRequest<typeof Topics.InvoicingAssign>) {
    requireAdminActor(req.actor, 'assign invoices');
    return this.assigning.assign(req.actor, req.items);
  }

  @HandleRequest(Topics.InvoicingCreateContact)
  createContact(@Payload() req: HandledRequest<typeof Topics.InvoicingCreateContact>) {
    requireGlobalRoleOf(req.actor, INVOICES_TAB, 'create an accounting contact');
    return this.contacts.create(req.actor, req.stockId);
  }

  @HandleRequest(Topics.InvoicingCreateRepeatingInvoice)
  createRepeatingInvoice(@Payload() req: HandledRequest<typeof Topics.InvoicingCreateRepeatingInvoice>) {
    requireGlobalRoleOf(req.actor, INVOICES_TAB, 'create a repeating invoice');
    return this.repeatingInvoices.create(req.actor, req.stockId, req.amountCents);
  }

  @HandleRequest(Topics.InvoicingReminderEmail)
  reminderEmail(@Payload() req: HandledRequest<typeof Topics.InvoicingReminderEmail>) {
    return this.reminders.compose(req.combinedTicker);
  }

  @HandleRequest(Topics.InvoicingInvoicePdf)
  invoicePdf(@Payload() req: HandledRequest<typeof Topics.InvoicingInvoicePdf>) {
    return this.pdfs.fetch(req.combinedTicker, req.invoiceId, req.checkedStockId);
  }
}
