import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { InitialPollProgress, Stock } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { reloadPage } from '@/api/pageReload';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { STOCK } from '../test/fixtures';
import { serveApi, type Handler, routeKey, routePath } from '@/test/fakeApi';
import { deferred } from '../test/fakeApi';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true, InvoiceTotal: true });
const adminWithoutInvoices = sessionUser('admin2', { Admin: true });
const reports = sessionUser('reports', { RunReports: true });
const reportsWithInvoices = sessionUser('invoicer', { RunReports: true, InvoiceTotal: true });
const client = sessionUser('client', {}, { [STOCK.id]: ['ViewConfig'] });

const ALL_TABS = ['Config', 'Market', 'Email marketing', 'Announcements', 'Invoices', 'Notes', 'Reports'];

const saved = (stock: Stock) => jsonResponse({ success: true, stock, errorMessage: null });

describe('stock page', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    fetchMock.mockReset();
    vi.mocked(reloadPage).mockReset();
  });

  function open(
    path: string,
    user = admin,
    stock: StaffStock = STOCK,
    handlers: Record<string, Handler> = {},
  ) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.get, { combinedTicker: stock.combinedTicker })]: () => jsonResponse(stock),
      ...handlers,
    });
    return { calls, ...renderRoute(path, { store: storeWith(user) }) };
  }

  const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.textContent);
  const title = () => screen.findByRole('heading', { name: /^BHP/ });

  describe('tabs by role', () => {
    it('shows admins every tab and opens Config by default', async () => {
      const { calls } = open('/stocks/BHP:ASX');
      await title();
      expect(tabNames()).toEqual(ALL_TABS);
      expect(screen.getByRole('tab', { name: 'Config' })).toHaveAttribute('aria-selected', 'true');
      expect(screen.getByLabelText('Company name')).toHaveValue('BHP Group');
      expect(calls[0]?.path).toBe(routePath(routes.stocks.get, { combinedTicker: 'BHP:ASX' }));
    });

    it('shows admins without InvoiceTotal every tab too (Admin implies all)', async () => {
      open('/stocks/BHP:ASX', adminWithoutInvoices);
      await title();
      expect(tabNames()).toEqual(ALL_TABS);
    });

    it('shows a report-runner holding InvoiceTotal Invoices beside Reports, and opens it by its URL', async () => {
      const { router } = open('/stocks/BHP:ASX/invoices', reportsWithInvoices);
      await title();
      expect(tabNames()).toEqual(['Invoices', 'Reports']);
      expect(screen.getByRole('tab', { name: 'Invoices' })).toHaveAttribute('aria-selected', 'true');
      expect(router.state.location.pathname).toBe('/stocks/BHP:ASX/invoices');
    });

    it('shows report-runners only Reports, by default, without Save', async () => {
      const { router } = open('/stocks/BHP:ASX', reports);
      await title();
      expect(tabNames()).toEqual(['Reports']);
      expect(screen.getByRole('tab', { name: 'Reports' })).toHaveAttribute('aria-selected', 'true');
      expect(screen.getByRole('heading', { name: 'Reports' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/stocks/BHP:ASX');
    });

    it('sends a report-runner asking for Config to Reports', async () => {
      const { router } = open('/stocks/BHP:ASX/config', reports);
      await waitFor(() => expect(router.state.location.pathname).toBe('/stocks/BHP:ASX/reports'));
      expect(screen.queryByLabelText('Company name')).not.toBeInTheDocument();
    });

    it('is not for client users', async () => {
      const { calls } = open('/stocks/BHP:ASX', client);
      expect(await screen.findByText('You are not allowed to view this page.')).toBeInTheDocument();
      expect(calls).toHaveLength(0);
    });

    it('opens the tab the URL names, in any case', async () => {
      open('/stocks/BHP:ASX/Market');
      expect(await screen.findByRole('heading', { name: 'Market Data' })).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'Market', selected: true })).toBeInTheDocument();
    });

    it('rewrites the fourth URL segment when switching tabs, replacing the history entry', async () => {
      const { router } = open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.notes)]: () => jsonResponse([]),
        [routeKey(routes.stocks.stockReferers)]: () => jsonResponse([]),
        [routeKey(routes.stocks.versionHistory)]: () => jsonResponse([]),
      });
      await title();
      fireEvent.click(screen.getByRole('tab', { name: 'Notes' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/stocks/BHP:ASX/notes'));
      expect(router.state.historyAction).toBe('REPLACE');
      expect(await screen.findByRole('heading', { name: 'Version History' })).toBeInTheDocument();

      fireEvent.click(screen.getByRole('tab', { name: 'Email marketing' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/stocks/BHP:ASX/email-marketing'));
      expect(await screen.findByRole('tab', { name: 'Email marketing', selected: true })).toBeInTheDocument();
    });

    it('shows the server message when the stock does not exist', async () => {
      open('/stocks/NOPE:ASX', admin, STOCK, {
        [routeKey(routes.stocks.get, { combinedTicker: 'NOPE:ASX' })]: () =>
          jsonResponse({ statusCode: 404, errorMessage: 'Stock NOPE:ASX not found' }, 404),
      });
      expect(await screen.findByRole('alert')).toHaveTextContent('Stock NOPE:ASX not found');
    });
  });

  describe('title', () => {
    it('shows the ticker and company name, with the created date in a tooltip', async () => {
      open('/stocks/BHP:ASX');
      const heading = await title();
      expect(heading).toHaveTextContent('BHP BHP Group');
      fireEvent.mouseEnter(heading);
      expect(await screen.findByText('Created 22 Mar 2025 8:50 AM')).toBeInTheDocument();
    });

    it('shows non-ASX tickers with the exchange', async () => {
      const lse = {
        ...STOCK,
        ticker: 'VOD',
        exchange: 'LSE',
        combinedTicker: 'VOD:LSE',
        isin: 'GB00BH4HKS39',
      };
      open('/stocks/VOD:LSE', admin, lse);
      expect(await screen.findByRole('heading', { name: /^VOD:LSE/ })).toBeInTheDocument();
      expect(screen.getByLabelText('ISIN')).toHaveValue('GB00BH4HKS39');
      expect(screen.getByLabelText('Exchange')).toHaveAttribute('readonly');
    });
  });

  describe('Save button', () => {
    it('shows on every tab but Notes and Reports', async () => {
      open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.notes)]: () => jsonResponse([]),
        [routeKey(routes.stocks.stockReferers)]: () => jsonResponse([]),
        [routeKey(routes.stocks.versionHistory)]: () => jsonResponse([]),
      });
      await title();
      for (const tab of ALL_TABS) {
        fireEvent.click(screen.getByRole('tab', { name: tab }));
        await waitFor(() =>
          expect(screen.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true'),
        );
        const expected = tab !== 'Notes' && tab !== 'Reports';
        expect(screen.queryByRole('button', { name: 'Save' }) !== null, tab).toBe(expected);
      }
    });

    it("hides Save and shows 'Sync in Progress' until the initial poll completes", async () => {
      open('/stocks/BHP:ASX', admin, { ...STOCK, pollAsx: true, completedInitialPoll: false });
      await title();
      expect(screen.getByText('Sync in Progress')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    });

    it('shows the initial poll progress in the label and fetches the stock every 2 seconds while it runs', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const running: InitialPollProgress = {
        stockId: STOCK.id,
        status: 'running',
        fromYear: 2019,
        toYear: 2026,
        currentYear: 2019,
        found: 340,
        startedAt: '2026-01-05T00:00:00.000Z',
        completedAt: null,
        error: null,
      };
      const syncing = {
        ...STOCK,
        completedInitialPoll: false,
        announcements: [],
        initialPoll: running,
        unavailable: [],
      };
      const { calls } = open('/stocks/BHP:ASX', admin, syncing);
      await title();
      expect(screen.getByTestId('sync-in-progress')).toHaveTextContent(
        'Sync in Progress: 2019 of 2026, 340 announcements',
      );
      const stockGets = () =>
        calls.filter((c) => c.path === routePath(routes.stocks.get, { combinedTicker: 'BHP:ASX' })).length;
      expect(stockGets()).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(2100));
      await waitFor(() => expect(stockGets()).toBe(2));
    });

    it('cycles Save, Saving..., Saved! for 3 seconds and sends the id with the changed fields', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const answer = deferred<Response>();
      const { calls } = open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.save)]: () => answer.promise,
      });
      await title();
      expect(screen.queryByText('Sync in Progress')).not.toBeInTheDocument();
      fireEvent.change(screen.getByLabelText('Company name'), { target: { value: 'BHP Ltd' } });
      fireEvent.change(screen.getByLabelText('Poll start year'), { target: { value: '2020' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
      const post = calls.find((c) => c.method === 'POST');
      expect(post?.path).toBe(routes.stocks.list.path);
      expect(post?.body).toEqual({ id: STOCK.id, companyName: 'BHP Ltd', announcementStartYear: 2020 });

      answer.resolve(saved({ ...STOCK, companyName: 'BHP Ltd', announcementStartYear: 2020, version: 4 }));
      expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(2500));
      expect(screen.getByRole('button', { name: 'Saved!' })).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(600));
      expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
      expect(screen.getByLabelText('Company name')).toHaveValue('BHP Ltd');

      // What was saved is the new baseline.
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
    });

    it("saves the stock's fields on Announcements: the Config edits kept while it shows", async () => {
      const page = { ...STOCK, announcements: [], initialPoll: null, unavailable: [] };
      const { calls, router } = open('/stocks/BHP:ASX/announcements', admin, page, {
        [routeKey(routes.stocks.save)]: () => saved({ ...STOCK, companyName: 'BHP Ltd', version: 4 }),
      });
      await title();
      // Nothing changed yet: nothing to save, nothing sent.
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Nothing to Save');

      await act(() => router.navigate('/stocks/BHP:ASX/config', { replace: true }));
      fireEvent.change(await screen.findByLabelText('Company name'), { target: { value: 'BHP Ltd' } });
      await act(() => router.navigate('/stocks/BHP:ASX/announcements', { replace: true }));
      await screen.findByRole('button', { name: 'Add Announcement' });
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
      const posts = calls.filter((c) => c.method === 'POST');
      expect(posts.map((c) => [c.path, c.body])).toEqual([
        [routes.stocks.save.path, { id: STOCK.id, companyName: 'BHP Ltd' }],
      ]);

      // What was saved is the new baseline, on Config too.
      await act(() => router.navigate('/stocks/BHP:ASX/config', { replace: true }));
      expect(await screen.findByLabelText('Company name')).toHaveValue('BHP Ltd');
    });

    it("says 'Nothing to Save' when nothing changed on the tab, and sends nothing", async () => {
      const { calls, router } = open('/stocks/BHP:ASX/market');
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Nothing to Save');

      await act(() => router.navigate('/stocks/BHP:ASX/config', { replace: true }));
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    });

    it("shows the server's errorMessage in a modal and returns to Save", async () => {
      open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.save)]: () =>
          jsonResponse(
            {
              statusCode: 400,
              error: 'Bad Request',
              message: 'Invalid email address in Confirmation email: nope',
              errorMessage: 'Invalid email address in Confirmation email: nope',
              success: false,
              stock: null,
            },
            400,
          ),
      });
      await title();
      fireEvent.change(screen.getByLabelText('Confirmation emails'), { target: { value: 'nope' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      const dialog = await screen.findByRole('dialog', { name: 'Save failed' });
      expect(
        within(dialog).getByText('Invalid email address in Confirmation email: nope'),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
      fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // The edit is kept for another try.
      expect(screen.getByLabelText('Confirmation emails')).toHaveValue('nope');
    });
  });

  describe('Config tab', () => {
    it('shows the website with http:// prefixed when it has no scheme', async () => {
      open('/stocks/BHP:ASX');
      await title();
      expect(screen.getByLabelText('Website')).toHaveValue('www.bhp.example');
      const link = screen.getByTestId('website-link');
      expect(link).toHaveTextContent('http://www.bhp.example');
      expect(link).toHaveAttribute('href', 'http://www.bhp.example');
      fireEvent.change(screen.getByLabelText('Website'), { target: { value: 'https://bhp.example' } });
      expect(screen.getByTestId('website-link')).toHaveAttribute('href', 'https://bhp.example');
    });

    it('links to the exchange and, with a key, to the widget API in a new tab', async () => {
      open('/stocks/BHP:ASX', admin, { ...STOCK, apiKey: 'key-1' });
      await title();
      expect(screen.getByRole('link', { name: 'View on Exchange' })).toHaveAttribute(
        'href',
        'https://www.asx.com.au/markets/trade-our-cash-market/overview/equities/BHP',
      );
      const testApi = screen.getByRole('link', { name: 'Test API' });
      expect(testApi).toHaveAttribute('href', '/api/widget/stock?apiKey=key-1');
      expect(testApi).toHaveAttribute('target', '_blank');
    });

    it('inserts the standard 3B/3Y auto-send filter', async () => {
      open('/stocks/BHP:ASX');
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Standard 3B/3Y filter' }));
      expect(screen.getByLabelText('Auto-send filter')).toHaveValue('appendix\\s*3[by]');
      // The hint says which way the filter works: matching headlines are kept from automatic sending.
      expect(
        screen.getByText(
          "Headlines matching this filter are NOT sent automatically (the standard filter keeps routine Appendix 3B/3Y forms out of subscribers' inboxes); they can still be sent by hand from the Announcements tab.",
        ),
      ).toBeInTheDocument();
    });

    it('sends switches as booleans', async () => {
      const { calls } = open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.save)]: () => saved({ ...STOCK, autoSendAnnouncementEmail: true }),
      });
      await title();
      const email = screen.getByRole('switch', {
        name: 'Send price-sensitive announcements by email marketing',
      });
      fireEvent.click(email);
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByRole('button', { name: 'Saved!' });
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        id: STOCK.id,
        autoSendAnnouncementEmail: true,
      });
    });

    it('asks before replacing an existing API key, and keeps the new one for Save', async () => {
      const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
      const { calls } = open(
        '/stocks/BHP:ASX',
        admin,
        { ...STOCK, apiKey: 'old-key' },
        {
          [routeKey(routes.stocks.newApiKey)]: () => jsonResponse({ apiKey: 'new-key' }),
          [routeKey(routes.stocks.save)]: () => saved({ ...STOCK, apiKey: 'new-key' }),
        },
      );
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
      expect(confirm).toHaveBeenCalledWith(
        expect.stringContaining('Existing applications using it will break'),
      );
      expect(calls.filter((c) => c.path === routes.stocks.newApiKey.path)).toHaveLength(0);
      expect(screen.getByLabelText('API key')).toHaveValue('old-key');

      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
      await waitFor(() => expect(screen.getByLabelText('API key')).toHaveValue('new-key'));
      expect(confirm).toHaveBeenCalledTimes(2);

      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByRole('button', { name: 'Saved!' });
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ id: STOCK.id, apiKey: 'new-key' });
    });

    it('generates a key without asking when the stock has none', async () => {
      const confirm = vi.spyOn(window, 'confirm');
      open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.newApiKey)]: () => jsonResponse({ apiKey: 'first-key' }),
      });
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
      await waitFor(() => expect(screen.getByLabelText('API key')).toHaveValue('first-key'));
      expect(confirm).not.toHaveBeenCalled();
    });
  });

  describe('Change Ticker', () => {
    it('cancels when the ticker is unchanged', async () => {
      const { calls } = open('/stocks/BHP:ASX');
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Change Ticker' }));
      expect(screen.getByLabelText('New ticker')).toHaveValue('BHP');
      fireEvent.click(screen.getByRole('button', { name: 'Confirm Change Ticker' }));
      expect(await screen.findByRole('button', { name: 'Change Ticker' })).toBeInTheDocument();
      expect(screen.queryByLabelText('New ticker')).not.toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    });

    it('changes the ticker, then opens the new address and reloads', async () => {
      const renamed = { ...STOCK, ticker: 'BHPX', combinedTicker: 'BHPX:ASX' };
      const { calls, router } = open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.changeTicker)]: () => jsonResponse({ success: true, stock: renamed }),
        [routeKey(routes.stocks.get, { combinedTicker: 'BHPX:ASX' })]: () => jsonResponse(renamed),
      });
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Change Ticker' }));
      fireEvent.change(screen.getByLabelText('New ticker'), { target: { value: 'bhpx' } });
      expect(screen.getByLabelText('New ticker')).toHaveValue('BHPX');
      fireEvent.click(screen.getByRole('button', { name: 'Confirm Change Ticker' }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/stocks/BHPX:ASX/config'));
      await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        exchange: 'ASX',
        ticker: 'BHP',
        newTicker: 'BHPX',
      });
    });

    it('alerts the errorMessage when the change fails', async () => {
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
      const { router } = open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.changeTicker)]: () =>
          jsonResponse(
            { statusCode: 409, errorMessage: 'A stock with ticker RIO already exists on ASX' },
            409,
          ),
      });
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Change Ticker' }));
      fireEvent.change(screen.getByLabelText('New ticker'), { target: { value: 'RIO' } });
      fireEvent.click(screen.getByRole('button', { name: 'Confirm Change Ticker' }));
      await waitFor(() =>
        expect(alert).toHaveBeenCalledWith('A stock with ticker RIO already exists on ASX'),
      );
      expect(router.state.location.pathname).toBe('/stocks/BHP:ASX');
      expect(reloadPage).not.toHaveBeenCalled();
    });

    it('alerts the ticker rule before asking the server', async () => {
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
      const { calls } = open('/stocks/BHP:ASX');
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Change Ticker' }));
      fireEvent.change(screen.getByLabelText('New ticker'), { target: { value: 'B-1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Confirm Change Ticker' }));
      await waitFor(() => expect(alert).toHaveBeenCalledWith('Please define a valid ticker'));
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    });
  });

  describe('Archive', () => {
    it('archives after confirmation, then reloads', async () => {
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
      const { calls } = open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.archive)]: () =>
          jsonResponse({ success: true, stock: { ...STOCK, archived: true } }),
      });
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Archive' }));
      await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
      expect(confirm).toHaveBeenCalledWith('Are you sure you want to archive BHP?');
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        exchange: 'ASX',
        ticker: 'BHP',
        archived: true,
      });
    });

    it('does nothing when the confirmation is declined, and offers Unarchive for archived stocks', async () => {
      vi.spyOn(window, 'confirm').mockReturnValue(false);
      const { calls } = open('/stocks/BHP:ASX', admin, { ...STOCK, archived: true });
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Unarchive' }));
      expect(window.confirm).toHaveBeenCalledWith('Are you sure you want to unarchive BHP?');
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
      expect(reloadPage).not.toHaveBeenCalled();
    });

    it('alerts a failure', async () => {
      vi.spyOn(window, 'confirm').mockReturnValue(true);
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
      open('/stocks/BHP:ASX', admin, STOCK, {
        [routeKey(routes.stocks.archive)]: () =>
          jsonResponse({ statusCode: 500, errorMessage: 'Stocks service unavailable' }, 500),
      });
      await title();
      fireEvent.click(screen.getByRole('button', { name: 'Archive' }));
      await waitFor(() => expect(alert).toHaveBeenCalledWith('Stocks service unavailable'));
      expect(reloadPage).not.toHaveBeenCalled();
    });
  });
});
