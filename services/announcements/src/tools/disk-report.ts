import { displayTicker, type DiskReportItem } from '@irp/proto';

/** What the disk report needs of a stock (the service's projection). */
export interface DiskReportStock {
  id: string;
  ticker: string;
  exchange: string;
  websiteUrl: string;
  apiKey: string | null;
  archived: boolean;
  subscriptionExpired: boolean;
}

/** A stock that pays: not archived, has an API key, subscription not expired. */
export const isBillable = (s: DiskReportStock): boolean =>
  !s.archived && Boolean(s.apiKey) && !s.subscriptionExpired;

/**
 * The disk report (spec section 3): each stock's stored PDF bytes, largest first. Without includeBillable
 * only the stocks that do not pay are listed: theirs are the files worth cleaning up.
 */
export function diskReportOf(
  stocks: readonly DiskReportStock[],
  bytesByStock: ReadonlyMap<string, number>,
  includeBillable: boolean,
): DiskReportItem[] {
  return stocks
    .filter((s) => includeBillable || !isBillable(s))
    .map((s) => ({
      ticker: displayTicker(s.ticker, s.exchange),
      diskSpace: bytesByStock.get(s.id) ?? 0,
      website: s.websiteUrl,
      apiKey: s.apiKey,
      // The reports service owns report usage; until it publishes it, this stays unknown.
      lastUsedInReport: null,
    }))
    .sort((a, b) => b.diskSpace - a.diskSpace || a.ticker.localeCompare(b.ticker));
}
