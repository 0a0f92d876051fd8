import { fireEvent, screen, within } from '@testing-library/react';
import type { ChartDataRow } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { errorResponse, routeKey, serveApi, type ApiCall, type Handler } from '@/test/fakeApi';
import { bhpStock } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { QUOTE } from '../test/fixtures';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });
const STOCK_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';
const STOCK: StaffStock = {
  ...bhpStock({ id: STOCK_ID }),
  announcements: [],
  initialPoll: null,
  unavailable: [],
  currentMarketData: QUOTE,
};
const ROWS: ChartDataRow[] = [
  { date: '2026-11-27', open: 45.3, high: 45.5, low: 44.9, close: 45.11, volume: 1234567 },
  { date: '2026-11-26', open: 45.0, high: 45.4, low: 44.8, close: 45.34, volume: 998877 },
];

const SAVE_PATH = routeKey(routes.reports.saveMarketData, { combinedTicker: 'BHP:ASX' });
const posts = (calls: ApiCall[], key: string) => calls.filter((c) => `${c.method} ${c.path}` === key);

describe('staff Market tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(handlers: Record<string, Handler> = {}, stock: StaffStock = STOCK) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.get, { combinedTicker: 'BHP:ASX' })]: () => jsonResponse(stock),
      [SAVE_PATH]: (call) =>
        jsonResponse({ ...QUOTE, ...(call.body as object), updated: '2026-11-28T01:00:00.000Z' }),
      [routeKey(routes.reports.getChartData)]: () => jsonResponse(ROWS),
      [routeKey(routes.reports.updateChartData)]: () =>
        jsonResponse({ success: true, rowCount: 251, errorMessage: null }),
      ...handlers,
    });
    renderRoute('/stocks/BHP:ASX/market', { store: storeWith(admin) });
    return calls;
  }

  const field = (label: string) => screen.getByLabelText(label);
  const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

  it('shows the current quote in the editable fields and its updated time read-only', async () => {
    open();
    expect(await screen.findByLabelText('Ask')).toHaveValue('45.12');
    expect(field('Movement %')).toHaveValue('-0.51');
    expect(field('Volume')).toHaveValue('1234567');
    expect(field('Market Cap')).toHaveValue('');
    expect(screen.getByTestId('market-updated')).toHaveTextContent('Updated: 27 Nov 2026 4:10 PM');
  });

  it('saves only the changed fields as numbers and shows the server’s updated time', async () => {
    const calls = open();
    await screen.findByLabelText('Ask');
    type('Ask', '46');
    type('Market Cap', '2,300,000,000');
    type('Volume', '1,234,567');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    expect(posts(calls, SAVE_PATH).map((c) => c.body)).toEqual([{ ask: 46, marketCap: 2300000000 }]);
    expect(screen.getByTestId('market-updated')).toHaveTextContent('28 Nov 2026 12:00 PM');
  });

  it('clears a field emptied and refuses one that is not a number without sending', async () => {
    const calls = open();
    await screen.findByLabelText('Ask');
    type('High', 'lots');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save failed' });
    expect(dialog).toHaveTextContent('High must be a number');
    expect(posts(calls, SAVE_PATH)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    type('High', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Saved!' });
    expect(posts(calls, SAVE_PATH).map((c) => c.body)).toEqual([{ high: null }]);
  });

  it("says 'Nothing to Save' when no field changed", async () => {
    open();
    await screen.findByLabelText('Ask');
    type('Volume', '1,234,567');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
  });

  it('Display shows the stock data table with its row count', async () => {
    const calls = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Display' }));
    expect(await screen.findByTestId('stock-data-count')).toHaveTextContent('2 rows');
    const table = screen.getByRole('table', { name: 'Stock Data' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Open', 'High', 'Low', 'Close', 'Volume']);
    expect(within(table).getByText('2026-11-26')).toBeInTheDocument();
    expect(within(table).getByText('998,877')).toBeInTheDocument();
    expect(calls.find((c) => c.path === routes.reports.getChartData.path)?.params.get('id')).toBe(STOCK_ID);
  });

  it("Update says 'Updated successfully' with the row count, or the provider's errorMessage", async () => {
    const calls = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Updated successfully (251 rows)');
    expect(posts(calls, routeKey(routes.reports.updateChartData)).map((c) => c.body)).toEqual([
      { id: STOCK_ID },
    ]);
  });

  it("Update shows the provider's refusal", async () => {
    open({
      [routeKey(routes.reports.updateChartData)]: () =>
        jsonResponse({ success: false, rowCount: null, errorMessage: 'Unknown code XYZ' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown code XYZ');
  });

  it('Update shows a failed call’s errorMessage', async () => {
    open({
      [routeKey(routes.reports.updateChartData)]: () =>
        errorResponse(503, 'The market-data provider is unavailable'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The market-data provider is unavailable');
  });

  it('says so when the market data service did not answer the stock page', async () => {
    open({}, { ...STOCK, currentMarketData: null, unavailable: ['reports'] });
    expect(await screen.findByRole('alert')).toHaveTextContent('The market data service did not answer');
    expect(field('Ask')).toHaveValue('');
  });
});
