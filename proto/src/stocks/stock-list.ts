import { ListStocksRequest, StockListCursor, StockListPage } from './messages';

/**
 * Every stock, page by page (`stocks.list`), in the list's order: `ask` sends one page's request (the
 * gateway's shared read, a service's requester). `onPage` sees each page as it arrives (the gateway
 * composes a page's columns while the next one is read).
 */
export async function readStockList(
  ask: (request: ListStocksRequest) => Promise<StockListPage>,
  pageSize?: number,
  onPage?: (stocks: StockListPage['stocks']) => void,
): Promise<StockListPage['stocks']> {
  const stocks: StockListPage['stocks'] = [];
  let after: StockListCursor | undefined;
  for (;;) {
    const page = await ask({ ...(after ? { after } : {}), ...(pageSize ? { limit: pageSize } : {}) });
    stocks.push(...page.stocks);
    onPage?.(page.stocks);
    if (!page.next) return stocks;
    if (after && page.next.id === after.id && page.next.created === after.created)
      throw new Error('stocks.list answered the same cursor twice');
    after = page.next;
  }
}

/**
 * The page of `stocks` (the whole list, in its order) that starts at index `start`: at most `limit`
 * stocks, and the cursor of the next page (null after the last). What `stocks.list` answers.
 */
export function stockListPageAt(
  stocks: readonly StockListPage['stocks'][number][],
  start: number,
  limit: number,
): StockListPage {
  const page = stocks.slice(start, start + limit);
  const last = page.at(-1);
  return {
    stocks: page,
    next: last && start + limit < stocks.length ? { created: last.created, id: last.id } : null,
  };
}
