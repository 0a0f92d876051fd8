import { screen, within } from '@testing-library/react';
import type { ClientStockDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, requestOf, sessionUser, storeWith } from '@/test/render';
import { routes } from '@/api/routes';
import { ClientDashboardRoute } from './ClientDashboardRoute';
import { clientStockDto, without } from '@/test/fixtures';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const client = sessionUser('client', {}, { 's-1': ['ViewConfig', 'Invoicing'], 's-2': ['ViewConfig'] });
const routeTable = [{ path: '/', element: <ClientDashboardRoute /> }];

const stock = (ticker: string, overrides: Partial<ClientStockDto> = {}) =>
  clientStockDto(ticker, {
    created: '2025-03-22T00:00:00.000Z',
    confirmationEmail: 'a@x.com, b@x.com;c@x.com',
    emailMarketing: true,
    ...overrides,
  });

const withInvoice = stock('ABC', {
  roles: ['ViewConfig', 'Invoicing'],
  invoiceId: 'inv-1',
  invoiceNumber: 'INV-0042',
  invoiceTotal: 1980,
  invoiceStatus: 'AUTHORISED',
  invoiceDate: '2024-01-05T02:00:00.000Z',
});
const lse = stock('VOD', { exchange: 'LSE', emailMarketing: false });

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

describe('ClientDashboardRoute', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it("lists the user's stocks with the spec's columns, Invoice included for an Invoicing holder", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ stocks: [withInvoice, lse] }));
    renderRoute('/', { store: storeWith(client), routeTable });

    expect(await screen.findByRole('link', { name: 'ABC' })).toHaveAttribute(
      'href',
      '/client-stocks/ABC:ASX',
    );
    expect(new URL(requestOf(fetchMock).url).pathname).toBe(routes.stocks.clientDashboard.path);
    expect(headers()).toEqual([
      'Ticker',
      'Created',
      'API Key',
      'Website',
      'Email marketing',
      'Confirmation Email',
      'Invoice',
    ]);
    expect(screen.getByRole('link', { name: 'VOD:LSE' })).toHaveAttribute('href', '/client-stocks/VOD:LSE');
    expect(screen.getByRole('link', { name: 'abc.com.au' })).toHaveAttribute('href', 'http://abc.com.au');

    const [abcRow, vodRow] = within(screen.getByTestId('client-dashboard-rows')).getAllByRole('row');
    if (!abcRow || !vodRow) throw new Error('two rows expected');
    expect(within(abcRow).getByRole('img', { name: 'Yes' })).toHaveTextContent('✓');
    expect(within(vodRow).getByRole('img', { name: 'No' })).toHaveTextContent('✗');
    expect(within(abcRow).getByText('22 Mar 2025')).toBeInTheDocument();
    // One confirmation email per line.
    expect(within(abcRow).getByText('a@x.com')).toBeInTheDocument();
    expect(within(abcRow).getByText('b@x.com')).toBeInTheDocument();
    expect(within(abcRow).getByText('c@x.com')).toBeInTheDocument();

    const invoice = within(abcRow).getByTestId('client-invoice-cell');
    expect(within(invoice).getByRole('link', { name: 'INV-0042' })).toHaveAttribute(
      'href',
      `${routes.invoicing.invoiceDownload.path}?ticker=ABC%3AASX&invoiceId=inv-1`,
    );
    expect(invoice).toHaveTextContent('INV-0042 $1,980.00 05Jan24');
    expect(invoice).toHaveTextContent(/Unpaid - \d+ days overdue/);
    expect(within(invoice).getByText(/days overdue/)).toHaveClass('overdue');
  });

  it('has no Invoice column without the Invoicing role', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ stocks: [lse, stock('XYZ')] }));
    renderRoute('/', { store: storeWith(client), routeTable });
    await screen.findByRole('link', { name: 'XYZ' });
    expect(headers()).not.toContain('Invoice');
  });

  it('shows Paid for a paid invoice', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ stocks: [{ ...withInvoice, invoiceStatus: 'PAID' }] }));
    renderRoute('/', { store: storeWith(client), routeTable });
    const cell = await screen.findByTestId('client-invoice-cell');
    expect(cell).toHaveTextContent('Paid');
    expect(cell).not.toHaveTextContent('overdue');
  });

  it('shows a row list on phones', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    fetchMock.mockResolvedValue(jsonResponse({ stocks: [withInvoice, lse] }));
    renderRoute('/', { store: storeWith(client), routeTable });
    await screen.findByRole('link', { name: 'ABC' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const list = screen.getByTestId('client-dashboard-rows');
    expect(within(list).getAllByText('Confirmation Email')).toHaveLength(2);
    expect(within(list).getByTestId('client-invoice-cell')).toBeInTheDocument();
  });

  it('leaves the cells of fields the user may not see blank (the gateway strips them without ViewConfig)', async () => {
    // What GET /api/clientDashboard/ sends for a stock the user holds only EditAnnouncements on.
    const announcerOnly = without(
      stock('XYZ', { roles: ['EditAnnouncements'] }),
      'apiKey',
      'confirmationEmail',
      'invoiceId',
      'invoiceNumber',
    );
    fetchMock.mockResolvedValue(jsonResponse({ stocks: [withInvoice, announcerOnly] }));
    renderRoute('/', { store: storeWith(client), routeTable });
    await screen.findByRole('link', { name: 'XYZ' });
    const [, xyzRow] = within(screen.getByTestId('client-dashboard-rows')).getAllByRole('row');
    if (!xyzRow) throw new Error('two rows expected');
    const cells = within(xyzRow).getAllByRole('cell');
    expect(headers()).toEqual([
      'Ticker',
      'Created',
      'API Key',
      'Website',
      'Email marketing',
      'Confirmation Email',
      'Invoice',
    ]);
    expect(cells[2]).toBeEmptyDOMElement();
    expect(cells[5]).toBeEmptyDOMElement();
    expect(cells[6]).toBeEmptyDOMElement();
    expect(within(xyzRow).getByRole('link', { name: 'xyz.com.au' })).toBeInTheDocument();
  });

  it('says so when the user has no stocks', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ stocks: [] }));
    renderRoute('/', { store: storeWith(client), routeTable });
    expect(await screen.findByText('You have no stocks to manage yet.')).toBeInTheDocument();
  });
});
