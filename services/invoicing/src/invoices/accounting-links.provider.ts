import { SERVICE_CONFIG } from '@irp/platform';
import { Provider } from '@nestjs/common';
import type { InvoicingConfig } from '../config';
import { accountingLinks, AccountingLinks } from './invoice-rules';

/** The links into the accounting system's web app of ACCOUNTING_APP_URL (none when it is unset). */
export const AccountingLinksProvider: Provider = {
  provide: AccountingLinks,
  inject: [SERVICE_CONFIG],
  useFactory: (config: InvoicingConfig) => accountingLinks(config.ACCOUNTING_APP_URL),
};
