import { AccountingPageDto } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { AccountingSync } from './accounting-sync';
import { ReadAccountingPage } from './read-accounting-page';

/** 'Refresh Accounting': the invoices changed since the last sync and every repeating invoice, then the page. */
@Injectable()
export class RefreshAccounting {
  constructor(
    private readonly sync: AccountingSync,
    private readonly page: ReadAccountingPage,
  ) {}

  async refresh(): Promise<AccountingPageDto> {
    await this.sync.sync({ full: false, repeating: true });
    return this.page.read();
  }
}
