import { AppError, pageOfRows } from '@irp/platform';
import {
  ACCOUNTING_INVOICE_PAGE_SIZE,
  AccountingInvoiceList,
  AccountingPageDto,
  ErrorCode,
} from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SyncStateRepository } from '../accounting/sync-state.repository';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AccountingLinks, accountingLine, accountingPage } from './invoice-rules';
import { InvoicesRepository, MatchedInvoice } from './invoices.repository';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';

/** A page asked after an invoice the accounting system no longer has (a stale or altered `after`). */
export const INVOICES_CHANGED_MESSAGE =
  'The invoices changed since this list was read: reload the page to see them';

/**
 * The accounting page: what no stock has yet, what staff set aside, and the stocks to assign to. Its two
 * invoice lists are paged (proto's ACCOUNTING_INVOICE_PAGE_SIZE): the page carries the first of each.
 */
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
    const first = { limit: ACCOUNTING_INVOICE_PAGE_SIZE };
    const [repeating, unassigned, ignored, stocks, state] = await Promise.all([
      this.repeating.unassignedRepeating(),
      this.pageOf('unassigned', first),
      this.pageOf('ignored', first),
      this.stocks.stockOptions(),
      this.syncState.syncState(),
    ]);
    return accountingPage({ repeating, unassigned, ignored, stocks, syncedAt: state.syncedAt }, this.links);
  }

  /** A page of one of the invoice lists after `after` (a previous page's `next`), and where the next starts. */
  async invoicePage(
    list: AccountingInvoiceList,
    page: { limit: number; after?: string },
  ): Promise<{ invoices: AccountingPageDto['invoices']; next: string | null }> {
    const { rows, next } = await this.pageOf(list, page);
    return { invoices: rows.map((i) => accountingLine(i, this.links)), next };
  }

  private async pageOf(
    list: AccountingInvoiceList,
    { limit, after }: { limit: number; after?: string },
  ): Promise<{ rows: MatchedInvoice[]; next: string | null }> {
    // One more than the page: whether another follows.
    const rows = await this.invoices.withoutStock(list === 'ignored', { limit: limit + 1, after });
    if (!rows) throw new AppError(ErrorCode.NotFound, INVOICES_CHANGED_MESSAGE);
    return pageOfRows(
      rows.map((i) => ({ ...i, id: i.invoiceId })),
      limit,
    );
  }
}
