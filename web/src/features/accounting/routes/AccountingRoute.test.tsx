import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi, type ApiCall, type Handler } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import type { AccountingPage } from '../api/accountingApi';
import { MORE_INVOICES_FAILED, moreInvoicesText } from '../components/AccountingPageView';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });

const STOCKS: AccountingPage['stocks'] = [
  { ticker: 'BHP:ASX', label: 'BHP:ASX www.bhp.example BHP Group' },
  { ticker: 'WES:ASX', label: 'WES:ASX wesfarmers.com.au Wesfarmers' },
];

const line = (invoiceID: string, text: string, url: string | null = null) => ({
  invoiceID,
  text,
  url,
  ticker: null,
});

const PAGE: AccountingPage = {
  repeatingInvoices: [],
  invoices: [
    line('inv-w', 'INV-0101 Wesfarmers $1,980.00 05Jan24', 'https://accounting.example/inv-w'),
    line('inv-p', 'INV-0102 Pilbara $990.00 07Feb24'),
  ],
  invoicesNext: null,
  ignored: [],
  ignoredNext: null,
  stocks: STOCKS,
  syncedAt: null,
};

const AFTER_ASSIGN: AccountingPage = {
  ...PAGE,
  invoices: [],
  ignored: [line('inv-p', 'INV-0102 Pilbara $990.00 07Feb24')],
};

const posts = (calls: ApiCall[], route: { path: string }) =>
  calls.filter((c) => c.method === 'POST' && c.path === route.path);

describe('/accounting-page', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(handlers: Record<string, Handler> = {}, user = admin) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.invoicing.accountingPage)]: () => jsonResponse(PAGE),
      ...handlers,
    });
    renderRoute('/accounting-page', { store: storeWith(user) });
    return calls;
  }

  const section = (name: string) => screen.getByRole('region', { name });

  it('lists the unassigned repeating invoices, the unassigned invoices with links and selects, and the ignored', async () => {
    open();
    await screen.findByRole('heading', { name: 'Unassigned Invoices' });
    expect(within(section('Unassigned Repeating Invoices')).getByText('None')).toBeInTheDocument();
    expect(within(section('Ignored Invoices')).getByText('None')).toBeInTheDocument();
    const unassigned = section('Unassigned Invoices');
    expect(within(unassigned).getByRole('link', { name: /INV-0101/ })).toHaveAttribute(
      'href',
      'https://accounting.example/inv-w',
    );
    // No url: the text alone.
    expect(
      within(unassigned)
        .getByText(/INV-0102/)
        .closest('a'),
    ).toBeNull();
    const select = within(unassigned).getByLabelText('Assign INV-0101 Wesfarmers $1,980.00 05Jan24');
    const optionsOf = (element: HTMLElement) =>
      within(element)
        .getAllByRole('option')
        .map((o) => o.textContent);
    // The stocks are put in a select once it is used (thousands of stocks, in every line).
    expect(optionsOf(select)).toEqual(['--Assign To--', 'Ignore']);
    fireEvent.focus(select);
    expect(optionsOf(select)).toEqual([
      '--Assign To--',
      'Ignore',
      'BHP:ASX www.bhp.example BHP Group',
      'WES:ASX wesfarmers.com.au Wesfarmers',
    ]);
    expect(select).toHaveValue('');
  });

  it("shows a line's own stock before its select is used, and keeps it when the stocks are put in", async () => {
    open({
      [routeKey(routes.invoicing.accountingPage)]: () =>
        jsonResponse({
          ...PAGE,
          invoices: [{ ...line('inv-w', 'INV-0101 Wesfarmers $1,980.00 05Jan24'), ticker: 'WES:ASX' }],
        }),
    });
    const select = await screen.findByLabelText('Assign INV-0101 Wesfarmers $1,980.00 05Jan24');
    expect(select).toHaveValue('WES:ASX');
    expect(within(select).getAllByRole('option')).toHaveLength(3);
    fireEvent.focus(select);
    expect(within(select).getAllByRole('option')).toHaveLength(4);
    expect(select).toHaveValue('WES:ASX');
  });

  it('shows the repeating invoices as text, a link where they have one', async () => {
    open({
      [routeKey(routes.invoicing.accountingPage)]: () =>
        jsonResponse({
          ...PAGE,
          repeatingInvoices: [
            {
              id: 'r-1',
              text: 'WES-2024 Wesfarmers $1,980.00 yearly',
              url: 'https://accounting.example/r-1',
            },
            { id: 'r-2', text: 'PLS Pilbara $990.00 yearly', url: null },
          ],
        }),
    });
    const link = await screen.findByRole('link', { name: 'WES-2024 Wesfarmers $1,980.00 yearly' });
    expect(link).toHaveAttribute('href', 'https://accounting.example/r-1');
    expect(
      within(section('Unassigned Repeating Invoices')).getByText('PLS Pilbara $990.00 yearly'),
    ).toBeInTheDocument();
  });

  it("refreshes: 'Refreshing...', then 'Refreshed!' and the page the server answers", async () => {
    let answer: (r: Response) => void = () => {};
    const calls = open({
      [routeKey(routes.invoicing.refreshAccounting)]: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh Accounting' }));
    expect(await screen.findByRole('button', { name: 'Refreshing...' })).toBeDisabled();
    answer(jsonResponse(AFTER_ASSIGN));
    expect(await screen.findByRole('button', { name: 'Refreshed!' })).toBeInTheDocument();
    expect(await within(section('Unassigned Invoices')).findByText('None')).toBeInTheDocument();
    expect(posts(calls, routes.invoicing.refreshAccounting)).toHaveLength(1);
  });

  it('shows an accounting outage (503) clearly and keeps the page', async () => {
    open({
      [routeKey(routes.invoicing.refreshAccounting)]: () =>
        errorResponse(503, 'The accounting system is unavailable: connect ECONNREFUSED'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh Accounting' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The accounting system is unavailable: connect ECONNREFUSED',
    );
    expect(screen.getByRole('button', { name: 'Refresh Accounting' })).toBeEnabled();
    expect(within(section('Unassigned Invoices')).getByText(/INV-0101/)).toBeInTheDocument();
  });

  it("assigns one invoice to a stock and ignores another: 'Wait...', 'Assigned!', the answered page", async () => {
    const calls = open({
      [routeKey(routes.invoicing.assignInvoices)]: () => jsonResponse(AFTER_ASSIGN),
    });
    const wes = await screen.findByLabelText('Assign INV-0101 Wesfarmers $1,980.00 05Jan24');
    fireEvent.pointerDown(wes);
    fireEvent.change(wes, { target: { value: 'WES:ASX' } });
    fireEvent.change(screen.getByLabelText('Assign INV-0102 Pilbara $990.00 07Feb24'), {
      target: { value: 'ignore' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Assign Invoices' }));
    expect(await screen.findByRole('button', { name: 'Assigned!' })).toBeInTheDocument();
    expect(posts(calls, routes.invoicing.assignInvoices).map((c) => c.body)).toEqual([
      {
        items: [
          { invoiceId: 'inv-w', ticker: 'WES:ASX' },
          { invoiceId: 'inv-p', ignore: true },
        ],
      },
    ]);
    expect(within(section('Unassigned Invoices')).getByText('None')).toBeInTheDocument();
    const ignored = section('Ignored Invoices');
    expect(within(ignored).getByLabelText('Assign INV-0102 Pilbara $990.00 07Feb24')).toHaveValue('ignore');
  });

  it('a blank choice removes an earlier one (neither ignore nor ticker is sent)', async () => {
    const calls = open({
      [routeKey(routes.invoicing.accountingPage)]: () => jsonResponse(AFTER_ASSIGN),
      [routeKey(routes.invoicing.assignInvoices)]: () => jsonResponse(PAGE),
    });
    const select = await screen.findByLabelText('Assign INV-0102 Pilbara $990.00 07Feb24');
    fireEvent.change(select, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Assign Invoices' }));
    await screen.findByRole('button', { name: 'Assigned!' });
    expect(posts(calls, routes.invoicing.assignInvoices)[0]?.body).toEqual({
      items: [{ invoiceId: 'inv-p' }],
    });
    await waitFor(() => expect(within(section('Ignored Invoices')).getByText('None')).toBeInTheDocument());
  });

  it('shows a refused assignment’s message', async () => {
    open({
      [routeKey(routes.invoicing.assignInvoices)]: () => errorResponse(400, 'Unknown ticker NOPE:ASX'),
    });
    const bhp = await screen.findByLabelText('Assign INV-0101 Wesfarmers $1,980.00 05Jan24');
    fireEvent.keyDown(bhp, { key: 'ArrowDown' });
    fireEvent.change(bhp, { target: { value: 'BHP:ASX' } });
    fireEvent.click(screen.getByRole('button', { name: 'Assign Invoices' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown ticker NOPE:ASX');
    expect(screen.getByRole('button', { name: 'Assign Invoices' })).toBeEnabled();
  });

  it('lists all 4,201 unassigned invoices in one list, the first page at once and the later pages as they come', async () => {
    // Oldest first, as the service answers them: the page's 200, then 2,000 at a time after a cursor.
    const many = Array.from({ length: 4_201 }, (_, i) =>
      line(`inv-${i}`, `INV-${String(i).padStart(6, '0')} Pilbara $990.00 07Feb24`),
    );
    const pageOf = (from: number, size: number) => {
      const invoices = many.slice(from, from + size);
      return { invoices, next: from + size < many.length ? invoices[invoices.length - 1]!.invoiceID : null };
    };
    const first = pageOf(0, 200);
    const laterPath = routeKey(routes.invoicing.accountingInvoices, { list: 'unassigned' });
    const calls = open({
      [routeKey(routes.invoicing.accountingPage)]: () =>
        jsonResponse({ ...PAGE, invoices: first.invoices, invoicesNext: first.next }),
      [laterPath]: ({ params }) =>
        jsonResponse(pageOf(many.findIndex((i) => i.invoiceID === params.get('after')) + 1, 2_000)),
    });
    const unassigned = await screen.findByRole('region', { name: 'Unassigned Invoices' });
    await waitFor(
      () => expect(within(unassigned).getAllByRole('listitem')[0]).toHaveAttribute('aria-setsize', '4201'),
      { timeout: 30_000 },
    );
    expect(screen.queryByText(/Loading more invoices/)).not.toBeInTheDocument();
    // Only the lines near the screen are in the page, the oldest first.
    const items = within(unassigned).getAllByRole('listitem');
    expect(items.length).toBeLessThan(60);
    expect(items[0]).toHaveTextContent('INV-000000');
    // Each later page asked once, after the one before.
    expect(
      calls.filter((c) => `${c.method} ${c.path}` === laterPath).map((c) => c.params.get('after')),
    ).toEqual(['inv-199', 'inv-2199', 'inv-4199']);
  });

  it("sends the choices made on a later page's lines, and reads the later pages again after Assign", async () => {
    const later = line('inv-later', 'INV-0500 Coral $500.00 01Mar24');
    const laterPath = routeKey(routes.invoicing.accountingInvoices, { list: 'unassigned' });
    const calls = open({
      [routeKey(routes.invoicing.accountingPage)]: () => jsonResponse({ ...PAGE, invoicesNext: 'inv-p' }),
      [laterPath]: () => jsonResponse({ invoices: [later], next: null }),
      [routeKey(routes.invoicing.assignInvoices)]: () => jsonResponse({ ...PAGE, invoicesNext: 'inv-p' }),
    });
    const select = await screen.findByLabelText('Assign INV-0500 Coral $500.00 01Mar24');
    fireEvent.focus(select);
    fireEvent.change(select, { target: { value: 'BHP:ASX' } });
    fireEvent.click(screen.getByRole('button', { name: 'Assign Invoices' }));
    await screen.findByRole('button', { name: 'Assigned!' });
    expect(posts(calls, routes.invoicing.assignInvoices)[0]?.body).toEqual({
      items: [{ invoiceId: 'inv-later', ticker: 'BHP:ASX' }],
    });
    await waitFor(() => expect(calls.filter((c) => `${c.method} ${c.path}` === laterPath)).toHaveLength(2));
  });

  it('says how many lines are shown while the rest load, and why a page did not come', async () => {
    open({
      [routeKey(routes.invoicing.accountingPage)]: () => jsonResponse({ ...PAGE, ignoredNext: 'inv-x' }),
      [routeKey(routes.invoicing.accountingInvoices, { list: 'ignored' })]: () =>
        errorResponse(404, 'The invoices changed since this list was read: reload the page to see them'),
    });
    const ignored = await screen.findByRole('region', { name: 'Ignored Invoices' });
    const alert = await within(ignored).findByRole('alert');
    expect(alert).toHaveTextContent(MORE_INVOICES_FAILED);
    expect(alert).toHaveTextContent('The invoices changed since this list was read');
    // The unassigned list, with no later page, is whole.
    expect(within(section('Unassigned Invoices')).getByText(/INV-0102/)).toBeInTheDocument();
    expect(moreInvoicesText(20_000)).toBe('Loading more invoices… 20,000 shown so far');
  });

  it('shows a failed load', async () => {
    open({
      [routeKey(routes.invoicing.accountingPage)]: () => errorResponse(503, 'The accounting system is down'),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The accounting system is down');
  });

  it('is for admins only', async () => {
    const calls = open({}, sessionUser('reports', { RunReports: true }));
    expect(await screen.findByText('You are not allowed to view this page.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
