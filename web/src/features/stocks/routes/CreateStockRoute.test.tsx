import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatIsoDate } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { STOCK } from '../test/fixtures';
import { serveApi, routeKey } from '@/test/fakeApi';
import { routes } from '@/api/routes';

const admin = sessionUser('admin', { Admin: true });
const reports = sessionUser('reports', { RunReports: true });

const EXCHANGES = [
  { code: 'ASX', name: 'Australian Securities Exchange', viewUrlTemplate: 'https://asx.example/{ticker}' },
  { code: 'LSE', name: 'London Stock Exchange', viewUrlTemplate: 'https://lse.example/{ticker}' },
  { code: 'FSE', name: 'Frankfurt Stock Exchange', viewUrlTemplate: 'https://fse.example/{ticker}' },
  { code: 'OTC', name: 'OTC Markets', viewUrlTemplate: 'https://otc.example/{ticker}' },
];

describe('/create', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(user = admin) {
    const created = { ...STOCK, ticker: 'XYZ', combinedTicker: 'XYZ:ASX', companyName: 'Xyz Ltd' };
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.exchanges)]: () => jsonResponse(EXCHANGES),
      [routeKey(routes.stocks.save)]: () =>
        jsonResponse({ success: true, stock: created, errorMessage: null }),
      [routeKey(routes.stocks.get, { combinedTicker: 'XYZ:ASX' })]: () => jsonResponse(created),
    });
    return { calls, ...renderRoute('/create', { store: storeWith(user) }) };
  }

  it('starts empty with the defaults: ASX, this year, billed today; Save shows, no tabs', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Add New Stock' })).toBeInTheDocument();
    const today = formatIsoDate(new Date());
    expect(screen.getByLabelText('Ticker')).toHaveValue('');
    expect(screen.getByLabelText('Company name')).toHaveValue('');
    await waitFor(() => expect(screen.getByLabelText('Exchange')).toHaveValue('ASX'));
    expect(screen.getByLabelText('Poll start year')).toHaveValue(Number(today.slice(0, 4)));
    expect(screen.getByLabelText('Billing date')).toHaveValue(today);
    expect(screen.getByRole('switch', { name: 'Poll' })).not.toBeChecked();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change Ticker' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.queryByText('Sync in Progress')).not.toBeInTheDocument();
  });

  it('upper-cases the ticker as you type', async () => {
    open();
    const ticker = await screen.findByLabelText('Ticker');
    fireEvent.change(ticker, { target: { value: 'xyz' } });
    expect(ticker).toHaveValue('XYZ');
  });

  it('offers the exchanges of GET /api/admin/exchanges/ and asks for an ISIN only on LSE and FSE', async () => {
    const { calls } = open();
    const exchange = await screen.findByLabelText('Exchange');
    await waitFor(() => expect(within(exchange).getAllByRole('option')).toHaveLength(4));
    expect(calls.some((c) => c.path === routes.stocks.exchanges.path)).toBe(true);
    expect(screen.queryByLabelText('ISIN')).not.toBeInTheDocument();
    for (const [code, isin] of [
      ['LSE', true],
      ['FSE', true],
      ['OTC', false],
    ] as const) {
      fireEvent.change(exchange, { target: { value: code } });
      expect(screen.queryByLabelText('ISIN') !== null, code).toBe(isin);
    }
  });

  it.each(['', 'ab', 'AB-1', '  x '])(
    "refuses ticker '%s' with 'Please define a valid ticker'",
    async (ticker) => {
      const { calls } = open();
      fireEvent.change(await screen.findByLabelText('Ticker'), { target: { value: ticker } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      const dialog = await screen.findByRole('dialog', { name: 'Save failed' });
      expect(within(dialog).getByText('Please define a valid ticker')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    },
  );

  it('creates the stock without an id, then opens its Config tab', async () => {
    const { calls, router } = open();
    fireEvent.change(await screen.findByLabelText('Ticker'), { target: { value: 'xyz' } });
    fireEvent.change(screen.getByLabelText('Company name'), { target: { value: 'Xyz Ltd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/stocks/XYZ:ASX/config'));
    expect(await screen.findByRole('heading', { name: 'XYZ Xyz Ltd' })).toBeInTheDocument();

    const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('id');
    const year = new Date().getFullYear();
    expect(body).toMatchObject({
      ticker: 'XYZ',
      exchange: 'ASX',
      companyName: 'Xyz Ltd',
      apiKey: null,
      pollAsx: false,
    });
    expect([year, year + 1]).toContain(body.announcementStartYear);
    expect(body.billingDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
  });

  it('is for admins only', async () => {
    open(reports);
    expect(await screen.findByText('You are not allowed to view this page.')).toBeInTheDocument();
  });
});
