import { StocksRun } from './stocks-harness';

/** The stocks routes in the OpenAPI document. */
export function openApiCases(t: StocksRun) {
  it('lists every stocks route in the OpenAPI document', async () => {
    const json = await t.http.get('/api/docs-json');
    expect(json.status).toBe(200);
    expect(Object.keys(json.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/admin/stocks',
        '/api/stock/{combinedTicker}',
        '/api/admin/changeTicker',
        '/api/admin/archiveStock',
        '/api/admin/apiKey',
        '/api/admin/exchanges',
        '/api/ClientStock',
        '/api/clientDashboard',
        '/api/admin/getNotes',
        '/api/admin/saveNote',
        '/api/admin/getStockVersionHistory',
        '/api/admin/stockReferers',
        '/api/admin/referers',
        '/api/widget/stock',
      ]),
    );
  });
}
