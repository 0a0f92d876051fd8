import { Injectable } from '@nestjs/common';
import { AccountingLinks, dashboardColumns, DashboardColumns, isoDayOf } from './invoice-rules';
import { InvoicesRepository } from './invoices.repository';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';

/** The dashboards' Invoice and Repeat columns of many stocks at once. */
@Injectable()
export class ReadDashboardColumns {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly repeating: RepeatingInvoicesRepository,
    private readonly links: AccountingLinks,
  ) {}

  /** Each stock's newest invoice dated on or before the range's end (today without one). */
  async read(
    stockIds: string[],
    range: { startDate: string; endDate: string } | undefined,
    now = new Date(),
  ): Promise<DashboardColumns> {
    const until = (range?.endDate ?? isoDayOf(now)).slice(0, 10);
    const [latest, repeating] = await Promise.all([
      this.invoices.latestInvoices(stockIds, until),
      this.repeating.repeatingOfStocks(stockIds),
    ]);
    return dashboardColumns(stockIds, latest, repeating, this.links, now);
  }
}
