import type { Reconcile } from '@irp/proto';
import type { SourceAnnouncement } from '../sources/source';
import type { ReconcileEntity, ReconcileFinding } from './reconcile.entity';

/** The items of a ticker that are not stored: what a reconcile reports and what its apply stores. */
export function missingItems(
  items: readonly SourceAnnouncement[],
  storedKeys: ReadonlySet<string>,
): SourceAnnouncement[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    if (storedKeys.has(i.sourceKey) || seen.has(i.sourceKey)) return false;
    seen.add(i.sourceKey);
    return true;
  });
}

/** Findings in the order the screen lists them: by ticker, each ticker's newest first. */
export function sortedFindings(findings: readonly ReconcileFinding[]): ReconcileFinding[] {
  return [...findings]
    .sort((a, b) => a.ticker.localeCompare(b.ticker) || a.stockId.localeCompare(b.stockId))
    .map((f) => ({
      ...f,
      items: [...f.items].sort((x, y) => new Date(y.releasedAt).getTime() - new Date(x.releasedAt).getTime()),
    }));
}

/** The run as the protocol's Reconcile: per ticker the announcements missing here. */
export function toReconcile(e: ReconcileEntity): Reconcile {
  return {
    id: e.id,
    numDays: e.numDays,
    status: e.status,
    checked: e.checked,
    total: e.total,
    results: (e.findings ?? []).map((f) => ({
      ticker: f.ticker,
      newAnnouncements: f.items.map((i) => ({
        date: new Date(i.releasedAt).toISOString(),
        headline: i.headline,
        priceSensitive: i.priceSensitive,
      })),
    })),
    applied: e.applied,
    error: e.error,
    startedAt: e.startedAt.toISOString(),
    completedAt: e.completedAt ? e.completedAt.toISOString() : null,
  };
}
