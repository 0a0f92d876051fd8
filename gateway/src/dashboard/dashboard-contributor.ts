import { DashboardInvoiceDto, DashboardRepeatingInvoiceDto, DateRange } from '@irp/proto';
import type { Contributor } from '../common/contributors';

/**
 * What one service adds to a stock's dashboard row. A field left undefined stays as another contributor
 * (or the default null) set it; each service owns its own fields.
 */
export interface DashboardContribution {
  emailMarketing?: boolean | null;
  invoice?: DashboardInvoiceDto | null;
  repeatingInvoice?: DashboardRepeatingInvoiceDto | null;
}

/** Every composed field, null when nobody contributed it. */
export type ComposedFields = {
  [K in keyof DashboardContribution]-?: NonNullable<DashboardContribution[K]> | null;
};

/**
 * A service that owns some dashboard columns (email marketing, invoicing). Its gateway adapter asks that
 * service over Kafka for many stocks at once and answers by stock id; a stock missing from the map keeps
 * null fields. `name` is what the dashboards list in `unavailable` when it fails or is too slow.
 */
export interface DashboardContributor extends Contributor {
  contribute(stockIds: string[], range: DateRange): Promise<Map<string, DashboardContribution>>;
}

/** Multi-provider token: the array of registered contributors (see DASHBOARD_CONTRIBUTOR_CLASSES). */
export const DASHBOARD_CONTRIBUTORS = Symbol('DASHBOARD_CONTRIBUTORS');

export const NO_CONTRIBUTION: ComposedFields = {
  emailMarketing: null,
  invoice: null,
  repeatingInvoice: null,
};
