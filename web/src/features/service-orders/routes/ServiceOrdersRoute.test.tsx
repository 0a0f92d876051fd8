import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ServiceOrder } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });

const order = (over: Partial<ServiceOrder>): ServiceOrder => ({
  id: '44444444-4444-4444-8444-444444444444',
  timestamp: '2026-11-20T01:00:00.000Z',
  companyName: 'Kestrel Copper Limited',
  ticker: 'KCU',
  reference: '',
  option: { name: 'Standard', price: 1800, lineItems: [] },
  authorisedBy: 'Priya Raman',
  website: 'https://kestrel.example',
  address: '190 St Georges Terrace, Perth WA 6000',
  contactName: 'Priya Raman',
  contactPhone: '08 9322 4410',
  contactEmail: 'priya@kestrel.example',
  abn: '51 824 753 556',
  listingDate: '',
  confirmationEmail: '',
  sendPriceSensitiveAnnouncements: true,
  sendNonPriceSensitiveAnnouncements: true,
  autoSendAnnouncementEmail: true,
  autoSendNonPriceSensitiveAnnouncements: false,
  emailMarketing: null,
  isCreated: false,
  combinedTicker: null,
  ...over,
});

describe('Service Orders screen', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const CREATED = order({
    id: '55555555-5555-4555-8555-555555555555',
    companyName: 'Harbourline Health',
    isCreated: true,
    combinedTicker: 'HHG:ASX',
    reference: 'HHG-1',
  });

  it('creates the stock with the edited ticker and reference and opens its page', async () => {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.serviceOrders)]: () => jsonResponse({ serviceOrders: [order({}), CREATED] }),
      [routeKey(routes.stocks.createStockFromServiceOrder)]: () =>
        jsonResponse({ url: '/stocks/KCU1:ASX', errorMessage: null }),
      'GET /api/stock/KCU1:ASX': () => errorResponse(404, 'Stock KCU1:ASX not found'),
    });
    const { router } = renderRoute('/orders', { store: storeWith(admin) });
    const [pending, created] = (await screen.findAllByTestId('service-order')) as [HTMLElement, HTMLElement];
    expect(within(created).queryByRole('button', { name: 'Create Service' })).not.toBeInTheDocument();
    expect(within(created).getByRole('link', { name: 'HHG:ASX' })).toBeInTheDocument();
    fireEvent.change(within(pending).getByRole('textbox', { name: 'Ticker' }), { target: { value: 'kcu1' } });
    fireEvent.change(within(pending).getByRole('textbox', { name: 'Reference' }), {
      target: { value: 'REF-9' },
    });
    fireEvent.click(within(pending).getByRole('button', { name: 'Create Service' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/stocks/KCU1:ASX'));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      serviceOrderId: '44444444-4444-4444-8444-444444444444',
      ticker: 'KCU1',
      reference: 'REF-9',
    });
  });

  it('shows an error as a notification and stays', async () => {
    serveApi(fetchMock, {
      [routeKey(routes.stocks.serviceOrders)]: () => jsonResponse({ serviceOrders: [order({})] }),
      [routeKey(routes.stocks.createStockFromServiceOrder)]: () =>
        errorResponse(400, 'Please define a valid ticker'),
    });
    const { router } = renderRoute('/orders', { store: storeWith(admin) });
    fireEvent.click(await screen.findByRole('button', { name: 'Create Service' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please define a valid ticker');
    expect(router.state.location.pathname).toBe('/orders');
  });
});
