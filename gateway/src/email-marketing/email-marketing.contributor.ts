import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DashboardContribution, DashboardContributor } from '../dashboard/dashboard-contributor';
import { ServicesClient } from '../kafka/services.client';

/** The dashboards' Email marketing column: whether a stock has its provider key and list saved. */
@Injectable()
export class EmailMarketingContributor implements DashboardContributor {
  readonly name = 'email-marketing';

  constructor(private readonly services: ServicesClient) {}

  async contribute(stockIds: string[]): Promise<Map<string, DashboardContribution>> {
    const { stocks } = await this.services.shared(Topics.EmailMarketingDashboard, { stockIds });
    return new Map(Object.entries(stocks).map(([id, s]) => [id, { emailMarketing: s.emailMarketing }]));
  }
}
