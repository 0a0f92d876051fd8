import { Module, Type } from '@nestjs/common';
import { DASHBOARD_CONTRIBUTORS, DashboardContributor } from './dashboard-contributor';
import { DashboardComposer } from './dashboard.composer';
import { EmailMarketingContributor } from '../email-marketing/email-marketing.contributor';

/**
 * The contributors the dashboards ask: email marketing (the Email marketing column); a later service
 * (invoicing) adds its gateway adapter class here and nothing else changes.
 */
export const DASHBOARD_CONTRIBUTOR_CLASSES: Type<DashboardContributor>[] = [EmailMarketingContributor];

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
