import { EventOf, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import type { MailStock } from '../mail/templates';
import { StockProjectionService } from '../stocks/stock-projection.repository';

type CommentEventStock = EventOf<typeof Topics.CommentPosted>['stock'];

/** The stock as the comment mails show it: this service's projection (logo), else what the event says. */
@Injectable()
export class CommentMailStock {
  constructor(private readonly stocks: StockProjectionService) {}

  async of(stock: CommentEventStock): Promise<MailStock> {
    const projected = await this.stocks.byId(stock.id);
    return (
      projected ?? {
        ticker: stock.ticker,
        exchange: stock.combinedTicker.split(':')[1] ?? 'ASX',
        companyName: stock.companyName,
        companyLogoUrl: '',
      }
    );
  }
}
