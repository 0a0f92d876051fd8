import { DateRange } from '@irp/proto';
import { createLogger } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { askContributors, unavailableOf } from '../common/contributors';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import {
  ComposedFields,
  DASHBOARD_CONTRIBUTORS,
  DashboardContribution,
  DashboardContributor,
  NO_CONTRIBUTION,
} from './dashboard-contributor';

const log = createLogger('dashboard');

export interface Composition {
  /** Composed fields of a stock; `fieldsOf` gives the all-null default for a stock nobody mentioned. */
  fieldsOf(stockId: string): ComposedFields;
  /** Names of contributors that failed or timed out, in registration order. */
  unavailable: string[];
}

/**
 * Composes the dashboards' columns owned by other services. Contributors run in parallel, each within
 * DASHBOARD_CONTRIBUTOR_TIMEOUT_MS (askContributors); one that fails or is too slow leaves its fields null
 * and is named in `unavailable` (the list still answers: the dashboard is more useful with a blank column
 * than an error).
 */
@Injectable()
export class DashboardComposer {
  constructor(
    @Inject(DASHBOARD_CONTRIBUTORS) private readonly contributors: readonly DashboardContributor[],
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'DASHBOARD_CONTRIBUTOR_TIMEOUT_MS'>,
  ) {}

  async compose(stockIds: readonly string[], range: DateRange): Promise<Composition> {
    const fields = new Map<string, ComposedFields>();
    let unavailable: string[] = [];
    const ids = [...new Set(stockIds)];
    const wanted = new Set(ids);
    if (ids.length && this.contributors.length) {
      const results = await askContributors(
        this.contributors,
        async (contributor) => {
          // The contributor gets its own copy: it must not be able to change what the others see.
          const value = await contributor.contribute([...ids], { ...range });
          if (!(value instanceof Map)) throw new Error('answered something other than a Map');
          return value;
        },
        {
          deadlineMs: this.config.DASHBOARD_CONTRIBUTOR_TIMEOUT_MS,
          log,
          message: 'dashboard contributor unavailable',
        },
      );
      for (const result of results) {
        if (!result.ok) continue;
        for (const [stockId, contribution] of result.value) {
          if (!wanted.has(stockId)) continue;
          fields.set(stockId, merge(fields.get(stockId) ?? NO_CONTRIBUTION, contribution));
        }
      }
      unavailable = unavailableOf(results);
    }
    return { fieldsOf: (id) => fields.get(id) ?? NO_CONTRIBUTION, unavailable };
  }
}

function merge(base: ComposedFields, contribution: DashboardContribution): ComposedFields {
  const next = { ...base };
  if (contribution.emailMarketing !== undefined) next.emailMarketing = contribution.emailMarketing;
  if (contribution.invoice !== undefined) next.invoice = contribution.invoice;
  if (contribution.repeatingInvoice !== undefined) next.repeatingInvoice = contribution.repeatingInvoice;
  return next;
}
