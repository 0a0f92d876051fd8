import { AppError } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { Accounting } from '../accounting/accounting.provider';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { pdfFileName } from './invoice-rules';
import { InvoicesRepository } from './invoices.repository';

/** The PDF of one of a stock's invoices, from the accounting system. */
@Injectable()
export class FetchInvoicePdf {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly invoices: InvoicesRepository,
    private readonly accounting: Accounting,
  ) {}

  /**
   * Another stock's (or an unknown) invoice is NOT_FOUND, and so is any invoice when the ticker names
   * another stock than the one whose role the gateway checked (`checkedStockId`: a stale lookup, a ticker
   * renamed meanwhile).
   */
  async fetch(
    combinedTicker: string,
    invoiceId: string,
    checkedStockId?: string,
  ): Promise<{ fileName: string; pdf: string }> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const ofStock =
      checkedStockId && stock.id !== checkedStockId ? [] : await this.invoices.invoicesOfStock(stock.id);
    const invoice = ofStock.find((i) => i.invoiceId === invoiceId.toLowerCase());
    if (!invoice)
      throw new AppError(
        ErrorCode.NotFound,
        `${stock.combinedTicker} has no invoice with the id ${invoiceId}`,
      );
    const pdf = await this.accounting.use().invoicePdf(invoice.invoiceId);
    return { fileName: pdfFileName(invoice), pdf: pdf.toString('base64') };
  }
}
