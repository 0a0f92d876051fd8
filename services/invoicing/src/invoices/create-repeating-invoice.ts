import { AppError, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import { Actor, ErrorCode, RepeatingInvoiceDto } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { repeatingInvoiceRecord } from './accounting-record-rules';
import { Accounting } from '../accounting/accounting.provider';
import type { InvoicingConfig } from '../config';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AccountingLinks, repeatingDto, yearlySubscription } from './invoice-rules';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';
import { StockBillingRepository } from './stock-billing.repository';

/**
 * A stock's yearly subscription as a repeating invoice in the accounting system (yearlySubscription says
 * its terms), for the stock's contact; stored at once and chosen as the stock's repeating invoice.
 */
@Injectable()
export class CreateRepeatingInvoice {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly billing: StockBillingRepository,
    private readonly repeating: RepeatingInvoicesRepository,
    private readonly accounting: Accounting,
    private readonly uow: UnitOfWork,
    private readonly links: AccountingLinks,
    @Inject(SERVICE_CONFIG) private readonly config: InvoicingConfig,
  ) {}

  async create(
    actor: Actor,
    stockId: string,
    amountCents: number,
    now = new Date(),
  ): Promise<{ repeatingInvoice: RepeatingInvoiceDto }> {
    const stock = await this.stocks.get(stockId);
    const billing = await this.billing.billing(stock.id);
    if (!billing.contactId)
      throw new AppError(
        ErrorCode.BadRequest,
        `${stock.combinedTicker} has no contact in the accounting system yet: create the contact first`,
      );
    const created = await this.accounting.use().createRepeatingInvoice({
      ...yearlySubscription(stock, amountCents, now),
      contactId: billing.contactId,
      accountCode: this.config.ACCOUNTING_SALES_ACCOUNT_CODE,
    });
    const record = repeatingInvoiceRecord(created);
    if (!record)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The accounting system answered an unreadable repeating invoice',
      );
    await this.uow.run(async (tx) => {
      await this.repeating.saveRepeatingInvoices([record], false, tx);
      await this.billing.saveBilling(stock.id, { repeatingInvoiceId: record.id }, actor.username, tx);
    });
    return { repeatingInvoice: repeatingDto(record, this.links) };
  }
}
