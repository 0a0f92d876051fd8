import { StockInvoiceDataDto } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SyncStateRepository } from '../accounting/sync-state.repository';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import { AccountingLinks, stockInvoiceData } from './invoice-rules';
import { InvoicesRepository } from './invoices.repository';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';
import { StockBillingRepository } from './stock-billing.repository';

/** A stock's Invoices tab (its invoice data); also the answer of saving it. Unknown tickers are NOT_FOUND. */
@Injectable()
export class ReadStockInvoices {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly invoices: InvoicesRepository,
    private readonly repeating: RepeatingInvoicesRepository,
    private readonly billing: StockBillingRepository,
    private readonly syncState: SyncStateRepository,
    private readonly links: AccountingLinks,
  ) {}

  async read(combinedTicker: string, now = new Date()): Promise<StockInvoiceDataDto> {
    return this.ofStock(await this.stocks.byCombinedTicker(combinedTicker), now);
  }

  async ofStock(stock: ProjectedStock, now = new Date()): Promise<StockInvoiceDataDto> {
    const [invoices, billing, options, own, state] = await Promise.all([
      this.invoices.invoicesOfStock(stock.id),
      this.billing.billing(stock.id),
      this.repeating.repeatingOptions(stock.id),
      this.repeating.repeatingOfStocks([stock.id]),
      this.syncState.syncState(),
    ]);
    return stockInvoiceData(
      { stock, invoices, repeating: own[0], options, contactId: billing.contactId, syncedAt: state.syncedAt },
      this.links,
      now,
    );
  }
}
