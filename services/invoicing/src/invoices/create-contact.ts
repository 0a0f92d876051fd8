import { Actor } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { Accounting } from '../accounting/accounting.provider';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { newContact } from './invoice-rules';
import { StockBillingRepository } from './stock-billing.repository';

/** A contact in the accounting system for a stock (a repeating invoice needs one); kept as the stock's contact. */
@Injectable()
export class CreateContact {
  constructor(
    private readonly stocks: StockProjectionService,
    private readonly accounting: Accounting,
    private readonly billing: StockBillingRepository,
  ) {}

  async create(actor: Actor, stockId: string): Promise<{ contactId: string }> {
    const stock = await this.stocks.get(stockId);
    const contactId = await this.accounting.use().createContact(newContact(stock));
    await this.billing.saveBilling(stock.id, { contactId }, actor.username);
    return { contactId };
  }
}
