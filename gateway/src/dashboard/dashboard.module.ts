import { Module, Type } from '@nestjs/common';
import { DASHBOARD_CONTRIBUTORS, DashboardContributor } from './dashboard-contributor';
import { DashboardComposer } from './dashboard.composer';

/**
 * The contributors the dashboards ask. None today, so the composed columns are null; a later service
 * (email marketing, invoicing) adds its gateway adapter class here and nothing else changes.
 */
export const DASHBOARD_CONTRIBUTOR_CLASSES: Type<DashboardContributor>[] = [];

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
