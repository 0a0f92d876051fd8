import { Actor, AccountingPageDto, ErrorCode, repeatedInvoiceIds, repeatedInvoicesMessage } from '@irp/proto';
import { AppError, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AssignmentsRepository } from './assignments.repository';
import {
  AssignmentItem,
  assignmentChoices,
  choiceTickers,
  missing,
  unknownInvoicesMessage,
  unknownTickersMessage,
} from './assignment-rules';
import { InvoicesRepository } from './invoices.repository';
import { ReadAccountingPage } from './read-accounting-page';

/** Staff's choices on the accounting page: each invoice to a stock, to the ignored list, or back to neither. */
@Injectable()
export class AssignInvoices {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly stocks: StockProjectionService,
    private readonly assignments: AssignmentsRepository,
    private readonly uow: UnitOfWork,
    private readonly page: ReadAccountingPage,
  ) {}

  /** Every invoice id and ticker must exist, and each invoice be named once, or nothing is saved. */
  async assign(actor: Actor, items: AssignmentItem[]): Promise<AccountingPageDto> {
    const repeated = repeatedInvoiceIds(items);
    if (repeated.length) throw new AppError(ErrorCode.BadRequest, repeatedInvoicesMessage(repeated));
    const ids = items.map((i) => i.invoiceId.toLowerCase());
    const tickers = choiceTickers(items);
    await this.uow.run(async (tx) => {
      const unknownIds = missing(ids, await this.invoices.knownInvoiceIds(ids, tx));
      if (unknownIds.length) throw new AppError(ErrorCode.BadRequest, unknownInvoicesMessage(unknownIds));
      const stockIds = await this.stocks.stockIdsByTicker(tickers, tx);
      const unknownTickers = missing(tickers, stockIds);
      if (unknownTickers.length)
        throw new AppError(ErrorCode.BadRequest, unknownTickersMessage(unknownTickers));
      await this.assignments.setAssignments(assignmentChoices(items, stockIds), actor.username, tx);
    });
    return this.page.read();
  }
}
