import { ListStocksRequest, StockListPage } from './messages';
import { readStockList, stockListPageAt } from './stock-list';

const stock = (n: number) =>
  ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    created: '2026-01-01T00:00:00.000Z',
  }) as StockListPage['stocks'][number];

/** A service answering pages of `all` after each cursor, recording what it was asked. */
function pagesOf(all: StockListPage['stocks']) {
  const asked: ListStocksRequest[] = [];
  const ask = async (request: ListStocksRequest): Promise<StockListPage> => {
    asked.push(request);
    const start = request.after ? all.findIndex((s) => s.id === request.after!.id) + 1 : 0;
    return stockListPageAt(all, start, request.limit ?? 1000);
  };
  return { ask, asked };
}

describe('readStockList', () => {
  it('asks page after page from the last cursor until there is no next, and gives each page as it comes', async () => {
    const all = Array.from({ length: 7 }, (_, i) => stock(i));
    const { ask, asked } = pagesOf(all);
    const seen: number[] = [];
    expect(await readStockList(ask, 3, (page) => seen.push(page.length))).toEqual(all);
    expect(seen).toEqual([3, 3, 1]);
    expect(asked).toEqual([
      { limit: 3 },
      { limit: 3, after: { created: all[2].created, id: all[2].id } },
      { limit: 3, after: { created: all[5].created, id: all[5].id } },
    ]);
  });

  it("leaves the page size to the service when none is given, and stops on an empty list's null cursor", async () => {
    const { ask, asked } = pagesOf([]);
    expect(await readStockList(ask)).toEqual([]);
    expect(asked).toEqual([{}]);
  });

  it('fails rather than loop when a service answers the same cursor twice', async () => {
    const cursor = { created: '2026-01-01T00:00:00.000Z', id: stock(1).id };
    await expect(readStockList(async () => ({ stocks: [stock(1)], next: cursor }))).rejects.toThrow(
      'stocks.list answered the same cursor twice',
    );
  });
});
