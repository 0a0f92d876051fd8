import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { StockReferers } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, requestOf, sessionUser, storeWith } from '@/test/render';
import { ReferersRoute } from './ReferersRoute';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });
const routeTable = [{ path: '/referers', element: <ReferersRoute /> }];

const STOCKS: StockReferers[] = [
  {
    ticker: 'ABC',
    exchange: 'ASX',
    combinedTicker: 'ABC:ASX',
    hits: 5,
    referers: [
      {
        url: 'https://abc.com.au/investors',
        count: 4,
        first: '2025-03-21T21:50:00.000Z',
        last: '2025-03-22T00:15:00.000Z',
      },
      {
        url: 'https://news.example/abc',
        count: 1,
        first: '2025-03-01T00:00:00.000Z',
        last: '2025-03-01T00:00:00.000Z',
      },
    ],
  },
  { ticker: 'VOD', exchange: 'LSE', combinedTicker: 'VOD:LSE', hits: 0, referers: [] },
];

describe('ReferersRoute', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('lists each stock with its referers, counts and Sydney times', async () => {
    fetchMock.mockResolvedValue(jsonResponse(STOCKS));
    renderRoute('/referers', { store: storeWith(admin), routeTable });

    const rows = within(await screen.findByTestId('referers-rows')).getAllByRole('row');
    expect(new URL(requestOf(fetchMock).url).pathname).toBe(routes.stocks.referers.path);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Ticker', 'Referers']);
    expect(rows).toHaveLength(2);
    const [abc, vod] = rows;
    if (!abc || !vod) throw new Error('two rows expected');
    expect(abc).toHaveTextContent('ABC');
    expect(abc).toHaveTextContent('5 hits');
    expect(within(abc).getByRole('link', { name: 'https://abc.com.au/investors' })).toHaveAttribute(
      'href',
      'https://abc.com.au/investors',
    );
    expect(abc).toHaveTextContent('4 hits · first 22 Mar 2025 8:50 AM · last 22 Mar 2025 11:15 AM');
    expect(vod).toHaveTextContent('VOD:LSE');
    expect(vod).toHaveTextContent('No referers yet');
  });

  it('filters by ticker or URL', async () => {
    fetchMock.mockResolvedValue(jsonResponse(STOCKS));
    renderRoute('/referers', { store: storeWith(admin), routeTable });
    await screen.findByTestId('referers-rows');
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'news.example' } });
    await waitFor(() => expect(screen.getByTestId('referers-showing')).toHaveTextContent('Showing 1 of 2'));
    expect(within(screen.getByTestId('referers-rows')).getAllByRole('row')).toHaveLength(1);
  });

  it('shows cards on phones', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    fetchMock.mockResolvedValue(jsonResponse(STOCKS));
    renderRoute('/referers', { store: storeWith(admin), routeTable });
    const list = await screen.findByTestId('referers-rows');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(list).getAllByTestId('referer')).toHaveLength(2);
  });

  it('shows the error for a user without access', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ statusCode: 403, errorMessage: 'Forbidden resource' }, 403));
    renderRoute('/referers', { store: storeWith(admin), routeTable });
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden resource');
    expect(screen.getByRole('heading', { name: 'Referers' })).toBeInTheDocument();
  });
});
