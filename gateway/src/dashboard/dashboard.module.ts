import { Module, Type } from '@nestjs/common';
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
    ...DASHBOARD_CONTRIBUTOR_CLASSES,
    {
      provide: DASHBOARD_CONTRIBUTORS,
      useFactory: (...contributors: DashboardContributor[]) => contributors,
      inject: DASHBOARD_CONTRIBUTOR_CLASSES,
    },
    DashboardComposer,
  ],
  exports: [DashboardComposer],
})
export class DashboardModule {}
