import { AccountingPageDto } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SyncStateRepository } from '../accounting/sync-state.repository';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AccountingLinks, accountingPage } from './invoice-rules';
import { InvoicesRepository } from './invoices.repository';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';

/** The accounting page: what no stock has yet, what staff set aside, and the stocks to assign to. */
@Injectable()
export class ReadAccountingPage {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly repeating: RepeatingInvoicesRepository,
    private readonly stocks: StockProjectionService,
    private readonly syncState: SyncStateRepository,
    private readonly links: AccountingLinks,
  ) {}

  async read(): Promise<AccountingPageDto> {
    const [repeating, unassigned, ignored, stocks, state] = await Promise.all([
      this.repeating.unassignedRepeating(),
      this.invoices.invoicesWithoutStock(false),
      this.invoices.invoicesWithoutStock(true),
      this.stocks.stockOptions(),
      this.syncState.syncState(),
    ]);
    return accountingPage({ repeating, unassigned, ignored, stocks, syncedAt: state.syncedAt }, this.links);
  }
}
