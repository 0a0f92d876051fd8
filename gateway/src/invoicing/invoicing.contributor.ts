import { DateRange, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DashboardContribution, DashboardContributor } from '../dashboard/dashboard-contributor';
import { ServicesClient } from '../kafka/services.client';

/** The dashboards' Invoice and Repeat columns (and the client form's invoice fields), from invoicing. */
@Injectable()
export class InvoicingContributor implements DashboardContributor {
  readonly name = 'invoicing';

  constructor(private readonly services: ServicesClient) {}

  async contribute(stockIds: string[], range: DateRange): Promise<Map<string, DashboardContribution>> {
    const { stocks } = await this.services.shared(Topics.InvoicingDashboard, {
      stockIds,
      range: { startDate: range.startDate.slice(0, 10), endDate: range.endDate.slice(0, 10) },
    });
    return new Map(
      Object.entries(stocks).map(([id, s]) => [
        id,
        { invoice: s.invoice, repeatingInvoice: s.repeatingInvoice },
      ]),
    );
  }
}
