import { SERVICE_CONFIG } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { InvoicingConfig } from '../config';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { reminderEmail } from './invoice-rules';
import { InvoicesRepository } from './invoices.repository';

/** The reminder mail of a stock's unpaid invoices that staff copy from the dashboard (reminderEmail). */
@Injectable()
export class ComposeReminderEmail {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly invoices: InvoicesRepository,
    @Inject(SERVICE_CONFIG) private readonly config: InvoicingConfig,
  ) {}

  async compose(combinedTicker: string, now = new Date()) {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const invoices = await this.invoices.invoicesOfStock(stock.id);
    return reminderEmail({
      companyName: stock.companyName,
      combinedTicker: stock.combinedTicker,
      invoices,
      signedBy: { name: this.config.BILLING_CONTACT_NAME, email: this.config.BILLING_CONTACT_EMAIL },
      now,
    });
  }
}
