import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { STOCK_LIST_UNAVAILABLE_HEADER, type StockListDto, type StockRowDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, requestOf, sessionUser, storeWith } from '@/test/render';
import { STAFF_DASHBOARD_STORAGE_KEY } from '../model/filtersSlice';
import { routes } from '@/api/routes';
import { StaffDashboardRoute } from './StaffDashboardRoute';
import { stockRowDto } from '@/test/fixtures';
import { routePath } from '@/test/fakeApi';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true, EditUsers: true, InvoiceTotal: true });
const reports = sessionUser('reports', { RunReports: true });
const routeTable = [{ path: '/', element: <StaffDashboardRoute /> }];

const row = (ticker: string, overrides: Partial<StockRowDto> = {}) =>
  stockRowDto(ticker, { emailMarketing: true, ...overrides });

const LIST: StockListDto = [
  row('ABC', {
    created: '2025-03-01T00:00:00.000Z',
    invoice: {
      invoiceId: 'inv-1',
      invoiceNumber: 'INV-0042',
      totalCents: 198000,
      date: '2024-01-05T02:00:00.000Z',
      status: 'AUTHORISED',
      unpaid: true,
      overdue: true,
      daysLate: 120,
    },
    repeatingInvoice: {
      repeatingInvoiceId: 'r-1',
      amountCents: 198000,
      nextScheduledDate: '2026-07-01T00:00:00.000Z',
      url: 'https://accounting.example/r-1',
    },
  }),
  row('VOD', {
    exchange: 'LSE',
    companyName: 'Vodafone Group',
    created: '2025-02-01T00:00:00.000Z',
    repeatingInvoice: {
      repeatingInvoiceId: 'r-2',
      amountCents: 100000,
      nextScheduledDate: null,
      url: null,
    },
  }),
  row('NOK', { apiKey: null, created: '2025-01-01T00:00:00.000Z' }),
  row('OLD', { archived: true, created: '2024-01-01T00:00:00.000Z' }),
];

const bodyRows = () => within(screen.getByTestId('staff-dashboard-rows')).getAllByRole('row');
const tickerOrder = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0]?.textContent);

describe('StaffDashboardRoute', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    sessionStorage.clear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows the admin columns, the non-archived stocks newest first and the repeating total', async () => {
    fetchMock.mockResolvedValue(jsonResponse(LIST));
    const { store } = renderRoute('/', { store: storeWith(admin), routeTable });

    expect(await screen.findByTestId('staff-dashboard-showing')).toHaveTextContent(
      'Showing 3 of 4 · All (non-Archived)',
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, ''))).toEqual([
      'Ticker',
      'Created',
      'API Key',
      'Poll',
      'Email marketing',
      'Invoice',
      'Repeat',
      'Expired',
      'Website',
    ]);
    expect(tickerOrder()).toEqual(['ABC', 'VOD:LSE', 'NOK']);
    expect(screen.getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('link', { name: 'VOD:LSE' })).toHaveAttribute('href', '/stocks/VOD:LSE');
    expect(screen.getByRole('link', { name: 'abc.com.au' })).toHaveAttribute('href', 'http://abc.com.au');
    expect(screen.getByTestId('repeating-invoice-total')).toHaveTextContent(
      'Repeating Invoice Total: $2,980 + GST',
    );

    const invoice = screen.getByTestId('invoice-cell');
    expect(invoice).toHaveTextContent('INV-0042 · $1,980.00 · 05Jan24');
    expect(invoice).toHaveTextContent('Unpaid 120 days overdue');
    expect(within(invoice).getByText('120 days overdue')).toHaveClass('overdue');
    expect(screen.getByRole('link', { name: 'Next 1 Jul 2026' })).toHaveAttribute(
      'href',
      'https://accounting.example/r-1',
    );
    expect(screen.getByText('$1,980 + GST')).toBeInTheDocument();
    // The reminder button only where there is an invoice.
    expect(screen.getAllByRole('button', { name: 'Copy reminder email' })).toHaveLength(1);

    const { startDate, endDate } = store.getState().staffDashboard;
    const url = new URL(requestOf(fetchMock).url);
    expect(url.pathname).toBe(routes.stocks.list.path);
    expect(url.searchParams.get('startDate')).toBe(startDate);
    expect(url.searchParams.get('endDate')).toBe(endDate);
  });

  it('opens the stock page through the router when a ticker is clicked', async () => {
    fetchMock.mockResolvedValue(jsonResponse(LIST));
    const { router } = renderRoute('/', {
      store: storeWith(admin),
      routeTable: [...routeTable, { path: '/stocks/:combinedTicker', element: <p>stock page</p> }],
    });
    fireEvent.click(await screen.findByRole('link', { name: 'VOD:LSE' }));
    expect(await screen.findByText('stock page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/stocks/VOD:LSE');
  });

  it('gives report-runners Ticker, Created and Website only, without the total', async () => {
    const summary = LIST.map(
      ({ id, ticker, exchange, combinedTicker, companyName, created, websiteUrl, archived }) => ({
        id,
        ticker,
        exchange,
        combinedTicker,
        companyName,
        created,
        websiteUrl,
        archived,
      }),
    );
    fetchMock.mockResolvedValue(jsonResponse(summary));
    renderRoute('/', { store: storeWith(reports), routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, ''))).toEqual([
      'Ticker',
      'Created',
      'Website',
    ]);
    expect(screen.queryByTestId('repeating-invoice-total')).not.toBeInTheDocument();
  });

  it('narrows the rows by text and by the select, and keeps the filters in sessionStorage', async () => {
    fetchMock.mockResolvedValue(jsonResponse(LIST));
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');

    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'vodafone' } });
    await waitFor(() =>
      expect(screen.getByTestId('staff-dashboard-showing')).toHaveTextContent(
        'Showing 1 of 4 · All (non-Archived) · matching "vodafone"',
      ),
    );
    expect(tickerOrder()).toEqual(['VOD:LSE']);
    expect(screen.queryByTestId('repeating-invoice-total')).not.toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'archived' } });
    await waitFor(() => expect(tickerOrder()).toEqual(['OLD']));
    expect(screen.getByTestId('staff-dashboard-showing')).toHaveTextContent('Showing 1 of 4 · Archived');

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'non-billable' } });
    await waitFor(() => expect(tickerOrder()).toEqual(['NOK']));
    expect(screen.queryByTestId('repeating-invoice-total')).not.toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(STAFF_DASHBOARD_STORAGE_KEY) ?? '{}')).toMatchObject({
      billable: 'non-billable',
    });
  });

  it('sorts by a header ascending, then descending', async () => {
    fetchMock.mockResolvedValue(jsonResponse(LIST));
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');

    fireEvent.click(screen.getByRole('button', { name: 'Ticker' }));
    expect(tickerOrder()).toEqual(['ABC', 'NOK', 'VOD:LSE']);
    expect(screen.getByRole('columnheader', { name: 'Ticker' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'none');

    fireEvent.click(screen.getByRole('button', { name: 'Ticker' }));
    expect(tickerOrder()).toEqual(['VOD:LSE', 'NOK', 'ABC']);
    expect(screen.getByRole('columnheader', { name: 'Ticker' })).toHaveAttribute('aria-sort', 'descending');
  });

  it('refetches with the chosen dates', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(LIST)));
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2024-07-01' } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(new URL(requestOf(fetchMock, 1).url).searchParams.get('startDate')).toBe('2024-07-01');
  });

  it("notes the services that did not answer, named in the list's header", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(LIST, 200, { [STOCK_LIST_UNAVAILABLE_HEADER]: 'email-marketing, invoicing' }),
    );
    renderRoute('/', { store: storeWith(admin), routeTable });
    expect(await screen.findByTestId('staff-dashboard-unavailable')).toHaveTextContent(
      '(email-marketing, invoicing did not answer)',
    );
  });

  it('notes nothing when the header names no service', async () => {
    fetchMock.mockResolvedValue(jsonResponse(LIST, 200, { [STOCK_LIST_UNAVAILABLE_HEADER]: '' }));
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    expect(screen.queryByTestId('staff-dashboard-unavailable')).toBeNull();
  });

  it('shows a row list instead of the table on small screens', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    fetchMock.mockResolvedValue(jsonResponse(LIST));
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const list = screen.getByTestId('staff-dashboard-rows');
    expect(within(list).getAllByRole('link', { name: /^(ABC|VOD:LSE|NOK)$/ })).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'ticker' } });
    fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'asc' } });
    const order = within(list)
      .getAllByRole('link')
      .map((a) => a.textContent)
      .filter((t) => t === 'ABC' || t === 'VOD:LSE' || t === 'NOK');
    expect(order).toEqual(['ABC', 'NOK', 'VOD:LSE']);
    // The invoice and repeat figures and the reminder button are in the row list too.
    expect(within(list).getByTestId('invoice-cell')).toHaveTextContent('INV-0042 · $1,980.00 · 05Jan24');
    expect(within(list).getByText('120 days overdue')).toHaveClass('overdue');
    expect(within(list).getByText('$1,980 + GST')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Next 1 Jul 2026' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Copy reminder email' })).toBeInTheDocument();
  });

  it('Billable and Billable - Unpaid narrow by API key, expiry and the invoice; the total follows Billable', async () => {
    fetchMock.mockResolvedValue(jsonResponse(LIST));
    renderRoute('/', { store: storeWith(admin), routeTable });
    await screen.findByTestId('staff-dashboard-showing');

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'billable' } });
    await waitFor(() => expect(tickerOrder()).toEqual(['ABC', 'VOD:LSE']));
    expect(screen.getByTestId('repeating-invoice-total')).toHaveTextContent(
      'Repeating Invoice Total: $2,980 + GST',
    );

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'billable-unpaid' } });
    await waitFor(() => expect(tickerOrder()).toEqual(['ABC']));
    expect(screen.getByTestId('staff-dashboard-showing')).toHaveTextContent(
      'Showing 1 of 4 · Billable - Unpaid',
    );
    expect(screen.queryByTestId('repeating-invoice-total')).not.toBeInTheDocument();
  });

  describe('Copy reminder email', () => {
    const reminder = {
      html: '<p>Please pay <b>INV-0042</b></p>',
      subject: 'Unpaid invoices',
      unpaidCount: 1,
    };

    function serve(reminderResponse: () => Response) {
      fetchMock.mockImplementation((input) => {
        const url = new URL((input as Request).url);
        if (
          decodeURIComponent(url.pathname) ===
          routePath(routes.invoicing.reminderEmail, { combinedTicker: 'ABC:ASX' })
        ) {
          return Promise.resolve(reminderResponse());
        }
        return Promise.resolve(jsonResponse(LIST));
      });
    }

    it('fetches the reminder HTML, copies it as text/html with a plain-text fallback and says so', async () => {
      const write = vi.fn().mockResolvedValue(undefined);
      const writeText = vi.fn().mockResolvedValue(undefined);
      const items: Record<string, Blob>[] = [];
      vi.stubGlobal(
        'ClipboardItem',
        class {
          constructor(parts: Record<string, Blob>) {
            items.push(parts);
          }
        },
      );
      vi.stubGlobal('navigator', { ...navigator, clipboard: { write, writeText } });
      serve(() => jsonResponse(reminder));
      renderRoute('/', { store: storeWith(admin), routeTable });
      fireEvent.click(await screen.findByRole('button', { name: 'Copy reminder email' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Email reminder copied to clipboard');
      expect(write).toHaveBeenCalledTimes(1);
      expect(writeText).not.toHaveBeenCalled();
      expect(Object.keys(items[0] ?? {})).toEqual(['text/html', 'text/plain']);
      expect(items[0]?.['text/html']?.type).toBe('text/html');
      expect(items[0]?.['text/html']?.size).toBe(reminder.html.length);
      expect(items[0]?.['text/plain']?.size).toBe('Please pay INV-0042'.length);
    });

    it('copies the HTML as text where the browser has no ClipboardItem', async () => {
      const writeText = vi.fn().mockResolvedValue(undefined);
      vi.stubGlobal('ClipboardItem', undefined);
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
      serve(() => jsonResponse(reminder));
      renderRoute('/', { store: storeWith(admin), routeTable });
      fireEvent.click(await screen.findByRole('button', { name: 'Copy reminder email' }));
      expect(await screen.findByText('Email reminder copied to clipboard')).toBeInTheDocument();
      expect(writeText).toHaveBeenCalledWith(reminder.html);
    });

    it('alerts the clipboard’s refusal', async () => {
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
      vi.stubGlobal('ClipboardItem', undefined);
      vi.stubGlobal('navigator', {
        ...navigator,
        clipboard: { writeText: vi.fn().mockRejectedValue(new Error('Write permission denied.')) },
      });
      serve(() => jsonResponse(reminder));
      renderRoute('/', { store: storeWith(admin), routeTable });
      fireEvent.click(await screen.findByRole('button', { name: 'Copy reminder email' }));
      await waitFor(() => expect(alert).toHaveBeenCalledWith('Write permission denied.'));
      expect(screen.queryByText('Email reminder copied to clipboard')).not.toBeInTheDocument();
      alert.mockRestore();
    });

    it('alerts the error when the reminder cannot be fetched', async () => {
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
      serve(() => jsonResponse({ statusCode: 503, errorMessage: 'The accounting system is down' }, 503));
      renderRoute('/', { store: storeWith(admin), routeTable });
      fireEvent.click(await screen.findByRole('button', { name: 'Copy reminder email' }));
      await waitFor(() => expect(alert).toHaveBeenCalledWith('The accounting system is down'));
      alert.mockRestore();
    });
  });

  it('shows the error when the list cannot be loaded', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ statusCode: 503, errorMessage: 'The stocks service is unavailable' }, 503),
    );
    renderRoute('/', { store: storeWith(admin), routeTable });
    expect(await screen.findByRole('alert')).toHaveTextContent('The stocks service is unavailable');
  });
});
