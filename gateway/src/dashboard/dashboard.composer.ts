import { DateRange } from '@irp/proto';
import { createLogger } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
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

class ContributorTimeout extends Error {}

/**
 * Composes the dashboards' columns owned by other services. Contributors run in parallel, each within
 * DASHBOARD_CONTRIBUTOR_TIMEOUT_MS; one that fails or is too slow leaves its fields null and is named in
 * `unavailable` (the list still answers: the dashboard is more useful with a blank column than an error).
 */
@Injectable()
export class DashboardComposer {
  constructor(
    @Inject(DASHBOARD_CONTRIBUTORS) private readonly contributors: readonly DashboardContributor[],
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'DASHBOARD_CONTRIBUTOR_TIMEOUT_MS'>,
  ) {}

  async compose(stockIds: readonly string[], range: DateRange): Promise<Composition> {
    const fields = new Map<string, ComposedFields>();
    const unavailable: string[] = [];
    const ids = [...new Set(stockIds)];
    const wanted = new Set(ids);
    if (ids.length && this.contributors.length) {
      const results = await Promise.all(this.contributors.map((c) => this.run(c, ids, range)));
      results.forEach((result, i) => {
        const name = this.contributors[i].name;
        if (!result.ok) {
          unavailable.push(name);
          log.warn({ contributor: name, reason: result.reason }, 'dashboard contributor unavailable');
          return;
        }
        for (const [stockId, contribution] of result.value) {
          if (!wanted.has(stockId)) continue;
          fields.set(stockId, merge(fields.get(stockId) ?? NO_CONTRIBUTION, contribution));
        }
      });
    }
    return { fieldsOf: (id) => fields.get(id) ?? NO_CONTRIBUTION, unavailable };
  }

  private async run(
    contributor: DashboardContributor,
    ids: string[],
    range: DateRange,
  ): Promise<{ ok: true; value: Map<string, DashboardContribution> } | { ok: false; reason: string }> {
    const ms = this.config.DASHBOARD_CONTRIBUTOR_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ContributorTimeout(`no answer within ${ms} ms`)), ms);
    });
    try {
      // The contributor gets its own copy: it must not be able to change what the others see.
      const value = await Promise.race([contributor.contribute([...ids], { ...range }), timeout]);
      if (!(value instanceof Map)) return { ok: false, reason: 'answered something other than a Map' };
      return { ok: true, value };
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }
}

function merge(base: ComposedFields, contribution: DashboardContribution): ComposedFields {
  const next = { ...base };
  if (contribution.emailMarketing !== undefined) next.emailMarketing = contribution.emailMarketing;
  if (contribution.invoice !== undefined) next.invoice = contribution.invoice;
  if (contribution.repeatingInvoice !== undefined) next.repeatingInvoice = contribution.repeatingInvoice;
  return next;
}
