import { AppError, HandledRequest, UnitOfWork } from '@irp/platform';
import { ErrorCode, StockInvoiceDataDto, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AssignmentsRepository } from './assignments.repository';
import { chosenRepeatingId, distinctInvoiceIds, missing, unknownInvoicesMessage } from './assignment-rules';
import { InvoicesRepository } from './invoices.repository';
import { ReadStockInvoices } from './read-stock-invoices';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';
import { StockBillingRepository } from './stock-billing.repository';

type SaveRequest = HandledRequest<typeof Topics.InvoicingSaveStockInvoices>;

/**
 * Spec section 7's saveInvoiceData: a stock's repeating invoice choice and the invoices assigned to it by
 * hand, each only when given. An unknown repeating invoice or invoice id is refused naming it, before
 * anything changes.
 */
@Injectable()
export class SaveInvoiceData {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly invoices: InvoicesRepository,
    private readonly repeating: RepeatingInvoicesRepository,
    private readonly billing: StockBillingRepository,
    private readonly assignments: AssignmentsRepository,
    private readonly uow: UnitOfWork,
    private readonly stockInvoices: ReadStockInvoices,
  ) {}

  async save(req: SaveRequest, now = new Date()): Promise<StockInvoiceDataDto> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    const repeatingId = chosenRepeatingId(req.repeatingInvoiceId);
    if (repeatingId && !(await this.repeating.repeatingById(repeatingId)))
      throw new AppError(ErrorCode.BadRequest, `No repeating invoice has the id ${req.repeatingInvoiceId}`);
    const invoiceIds = req.invoices ? distinctInvoiceIds(req.invoices) : undefined;
    if (invoiceIds) {
      const unknown = missing(invoiceIds, await this.invoices.knownInvoiceIds(invoiceIds));
      if (unknown.length) throw new AppError(ErrorCode.BadRequest, unknownInvoicesMessage(unknown));
    }
    await this.uow.run(async (tx) => {
      if (repeatingId !== undefined)
        await this.billing.saveBilling(stock.id, { repeatingInvoiceId: repeatingId }, req.actor.username, tx);
      if (invoiceIds)
        await this.assignments.replaceStockAssignments(stock.id, invoiceIds, req.actor.username, tx);
    });
    return this.stockInvoices.ofStock(stock, now);
  }
}
