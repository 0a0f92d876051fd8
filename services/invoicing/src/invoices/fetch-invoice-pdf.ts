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

  /** Another stock's (or an unknown) invoice is NOT_FOUND. */
  async fetch(combinedTicker: string, invoiceId: string): Promise<{ fileName: string; pdf: string }> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const invoice = (await this.invoices.invoicesOfStock(stock.id)).find(
      (i) => i.invoiceId === invoiceId.toLowerCase(),
    );
    if (!invoice)
      throw new AppError(
        ErrorCode.NotFound,
        `${stock.combinedTicker} has no invoice with the id ${invoiceId}`,
      );
    const pdf = await this.accounting.use().invoicePdf(invoice.invoiceId);
    return { fileName: pdfFileName(invoice), pdf: pdf.toString('base64') };
  }
}
