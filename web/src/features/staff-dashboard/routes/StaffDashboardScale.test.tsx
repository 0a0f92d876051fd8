import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { StockListDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { stockRowDto } from '@/test/fixtures';
import { StaffDashboardRoute } from './StaffDashboardRoute';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true, EditUsers: true, InvoiceTotal: true });
const routeTable = [{ path: '/', element: <StaffDashboardRoute /> }];

// 20,000 stocks, newest first: S00000 is the newest, S19999 the oldest (the last row).
const COUNT = 20_000;
const day = Date.UTC(2025, 0, 1);
const LIST: StockListDto = Array.from({ length: COUNT }, (_, i) => {
  const ticker = `S${String(i).padStart(5, '0')}`;
  return stockRowDto(ticker, {
    companyName: `Company ${ticker}`,
    created: new Date(day - i * 60_000).toISOString(),
  });
});

const list = () => screen.getByTestId('staff-dashboard-rows');
const shownRows = () => within(list()).queryAllByTestId('dashboard-row');

describe('StaffDashboardRoute at 20,000 stocks', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    sessionStorage.clear();
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockResolvedValue(jsonResponse(LIST));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('renders only the rows near the screen, each with its place in the whole table', async () => {
    renderRoute('/', { store: storeWith(admin), routeTable });
    expect(await screen.findByTestId('staff-dashboard-showing')).toHaveTextContent(
      `Showing ${COUNT} of ${COUNT}`,
    );
    expect(screen.getByRole('table', { name: 'Stocks' })).toHaveAttribute('aria-rowcount', String(COUNT + 1));
    const rows = shownRows();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]).toHaveAttribute('aria-rowindex', '2');
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'S00000' })).toBeInTheDocument();
  });

  it('keeps the answer in the store as given: Immer neither walks nor deep-freezes the 20,000 rows', async () => {
    const store = storeWith(admin);
    renderRoute('/', { store, routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    const entries = Object.values(store.getState().api.queries);
    const list = entries.find((entry) => entry?.endpointName === 'staffDashboardStocks')?.data as
      { stocks: StockListDto } | undefined;
    expect(list?.stocks).toHaveLength(COUNT);
    // The answer (the array) frozen by the base query, so Immer stops there; a row left as parsed,
    // which Immer's deep freeze would have frozen.
    expect(Object.isFrozen(list?.stocks)).toBe(true);
    expect(Object.isFrozen(list?.stocks[0])).toBe(false);
  });

  it('finds a stock far down the list by filtering', async () => {
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    expect(within(list()).queryByRole('link', { name: 'S19999' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'company s19999' } });
    await waitFor(() =>
      expect(screen.getByTestId('staff-dashboard-showing')).toHaveTextContent(`Showing 1 of ${COUNT}`),
    );
    expect(shownRows()).toHaveLength(1);
    expect(within(list()).getByRole('link', { name: 'S19999' })).toHaveAttribute(
      'href',
      '/stocks/S19999:ASX',
    );
  });

  it('lists only the cards near the screen on phones', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    const cards = within(screen.getByRole('list', { name: 'Stocks' })).getAllByRole('listitem');
    expect(cards.length).toBeLessThan(30);
    expect(cards[0]).toHaveAttribute('aria-setsize', String(COUNT));
  });
});
