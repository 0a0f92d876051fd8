import { Module, Type } from '@nestjs/common';
import { contributorProviders } from '../common/contributors';
import { DASHBOARD_CONTRIBUTORS, DashboardContributor } from './dashboard-contributor';
import { DashboardComposer } from './dashboard.composer';
import { EmailMarketingContributor } from '../email-marketing/email-marketing.contributor';
import { InvoicingContributor } from '../invoicing/invoicing.contributor';

/**
 * The contributors the dashboards ask: email marketing (the Email marketing column) and invoicing (the
 * Invoice and Repeat columns, the client form's invoice fields). A service adds its gateway adapter class
 * here and nothing else changes.
 */
export const DASHBOARD_CONTRIBUTOR_CLASSES: Type<DashboardContributor>[] = [
  EmailMarketingContributor,
  InvoicingContributor,
];

@Module({
  providers: [
    ...contributorProviders(DASHBOARD_CONTRIBUTORS, DASHBOARD_CONTRIBUTOR_CLASSES),
    DashboardComposer,
  ],
  exports: [DashboardComposer],
})
export class DashboardModule {}
