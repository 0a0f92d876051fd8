import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InvoicesService } from './invoices.service';

@Controller()
export class InvoicingHandlers {
  constructor(private readonly invoices: InvoicesService) {}

  @HandleRequest(Topics.InvoicingDashboard)
  async dashboard(@Payload() req: HandledRequest<typeof Topics.InvoicingDashboard>) {
    return { stocks: await this.invoices.dashboard(req.stockIds, req.range) };
  }

  @HandleRequest(Topics.InvoicingStockInvoices)
  stockInvoices(@Payload() req: HandledRequest<typeof Topics.InvoicingStockInvoices>) {
    return this.invoices.stockInvoices(req.combinedTicker);
  }

  @HandleRequest(Topics.InvoicingSaveStockInvoices)
  saveStockInvoices(@Payload() req: HandledRequest<typeof Topics.InvoicingSaveStockInvoices>) {
    return this.invoices.saveStockInvoices(req);
  }

  @HandleRequest(Topics.InvoicingAccountingPage)
  accountingPage() {
    return this.invoices.accountingPage();
  }

  @HandleRequest(Topics.InvoicingRefresh)
  refresh() {
    return this.invoices.refresh();
  }

  @HandleRequest(Topics.InvoicingAssign)
  assign(@Payload() req: HandledRequest<typeof Topics.InvoicingAssign>) {
    return this.invoices.assign(req.actor, req.items);
  }

  @HandleRequest(Topics.InvoicingCreateContact)
  createContact(@Payload() req: HandledRequest<typeof Topics.InvoicingCreateContact>) {
    return this.invoices.createContact(req.actor, req.stockId);
  }

  @HandleRequest(Topics.InvoicingCreateRepeatingInvoice)
  createRepeatingInvoice(@Payload() req: HandledRequest<typeof Topics.InvoicingCreateRepeatingInvoice>) {
    return this.invoices.createRepeatingInvoice(req.actor, req.stockId, req.amountCents);
  }

  @HandleRequest(Topics.InvoicingReminderEmail)
  reminderEmail(@Payload() req: HandledRequest<typeof Topics.InvoicingReminderEmail>) {
    return this.invoices.reminderEmail(req.combinedTicker);
  }

  @HandleRequest(Topics.InvoicingInvoicePdf)
  invoicePdf(@Payload() req: HandledRequest<typeof Topics.InvoicingInvoicePdf>) {
    return this.invoices.invoicePdf(req.combinedTicker, req.invoiceId);
  }
}
