import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  access,
  reportsRoutes,
  type DiskReportItem,
  type FileCleanup,
  type Reconcile,
  type SystemSettings,
} from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { confirmTexts } from '../components/ReconcileSection';
import { confirmTestEmail } from '../components/TestEmailSection';
import { marketJobTexts } from '../components/MarketDataJobsSection';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, routePath, serveApi, type Handler } from '@/test/fakeApi';
import { SystemSettingsRoute } from './SystemSettingsRoute';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });
const reports = sessionUser('reports', { RunReports: true });
const routeTable = [{ path: '/system-settings', element: <SystemSettingsRoute /> }];

const SETTINGS: SystemSettings = {
  announcementService: 'mock',
  errorEmail: 'errors@example.com',
  hourlyAutoSendLimit: 20,
  dailyAutoSendLimit: 100,
  disablePollUntil: '2025-03-21T21:50:00.000Z',
  useNightmare: false,
};

const CLEANUP: FileCleanup = {
  missingOnDisk: [
    {
      combinedTicker: 'BHP:ASX',
      sendGuid: 'a1b2c3d4-0000-4000-8000-000000000001',
      headline: 'Quarterly Activities Report',
      date: '2025-03-21T21:50:00.000Z',
      localPath: 'BHP/a1b2.pdf',
    },
  ],
  duplicates: [
    {
      sha256: 'ab'.repeat(32),
      size: 2048,
      files: [
        { directory: 'BHP', filename: 'one.pdf', size: 2048 },
        { directory: 'CBA', filename: 'two.pdf', size: 2048 },
      ],
    },
  ],
  onDiskButNotInDatabase: [
    { directory: 'CSL', filename: 'orphan.pdf', size: 3_145_728 },
    { directory: 'PLS', filename: 'stray.pdf', size: 512 },
  ],
};

const DISK: DiskReportItem[] = [
  {
    ticker: 'BHP:ASX',
    diskSpace: 5_452_595,
    website: 'www.bhp.example',
    apiKey: 'key-1',
    lastUsedInReport: '2025-03-21T21:50:00.000Z',
  },
  { ticker: 'OLD:ASX', diskSpace: 1_048_576, website: '', apiKey: null, lastUsedInReport: null },
];

const RECONCILE_ID = 'c0ffee00-0000-4000-8000-000000000001';
const reconcile = (overrides: Partial<Reconcile> = {}): Reconcile => ({
  id: RECONCILE_ID,
  numDays: 3,
  status: 'running',
  checked: 1,
  total: 4,
  results: [],
  applied: null,
  error: null,
  startedAt: '2025-03-21T21:50:00.000Z',
  completedAt: null,
  ...overrides,
});
const FOUND = [
  {
    ticker: 'BHP:ASX',
    newAnnouncements: [
      { date: '2025-03-20T22:00:00.000Z', headline: 'Change of Director Interest', priceSensitive: false },
      { date: '2025-03-21T22:00:00.000Z', headline: 'Quarterly Report', priceSensitive: true },
    ],
  },
  { ticker: 'CBA:ASX', newAnnouncements: [] },
  {
    ticker: 'CSL:ASX',
    newAnnouncements: [{ date: '2025-03-19T23:00:00.000Z', headline: 'Dividend', priceSensitive: true }],
  },
];

describe('SystemSettingsRoute', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    fetchMock.mockReset();
  });

  function open(handlers: Record<string, Handler> = {}, user = admin) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.announcements.systemSettings)]: () => jsonResponse(SETTINGS),
      [routeKey(routes.announcements.reconcileLast)]: () => jsonResponse(null),
      ...handlers,
    });
    return { calls, ...renderRoute('/system-settings', { store: storeWith(user), routeTable }) };
  }

  const section = (name: string) => screen.getByRole('region', { name });
  const posts = <T extends { method: string }>(calls: T[]) => calls.filter((c) => c.method === 'POST');

  it('is for admins only', async () => {
    const { calls } = open({}, reports);
    expect(await screen.findByText('You are not allowed to view this page.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Sync Watchlist' })).not.toBeInTheDocument();
  });

  it('shows the settings, with the disable-poll time in Sydney time', async () => {
    open();
    expect(await screen.findByLabelText('Announcement service')).toHaveValue('mock');
    const options = within(screen.getByLabelText('Announcement service')).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('value'))).toEqual(['asx', 'asx2', 'westpac', 'iress', 'mock']);
    expect(screen.getByLabelText('Error email')).toHaveValue('errors@example.com');
    expect(screen.getByLabelText('Hourly auto-send limit')).toHaveValue(20);
    expect(screen.getByLabelText('Daily auto-send limit')).toHaveValue(100);
    expect(screen.getByLabelText('Disable poll until')).toHaveValue('22 Mar 2025 8:50 AM');
    expect(screen.getByRole('switch', { name: 'Browser-automation mode' })).not.toBeChecked();
    for (const name of ['Settings', 'File cleanup', 'Reconcile', 'Market data', 'Disk report', 'Test email'])
      expect(section(name)).toBeInTheDocument();
  });

  it("saves every field, limits as numbers, and says 'Saved!' for 3 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const saved: SystemSettings = {
      ...SETTINGS,
      announcementService: 'asx',
      dailyAutoSendLimit: 50,
      disablePollUntil: null,
      useNightmare: true,
    };
    const { calls } = open({
      [routeKey(routes.announcements.saveSystemSettings)]: () =>
        jsonResponse({ success: true, settings: saved, errorMessage: null }),
    });
    fireEvent.change(await screen.findByLabelText('Announcement service'), { target: { value: 'asx' } });
    fireEvent.change(screen.getByLabelText('Daily auto-send limit'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Disable poll until'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Browser-automation mode' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    expect(posts(calls)[0]?.body).toEqual({
      announcementService: 'asx',
      errorEmail: 'errors@example.com',
      hourlyAutoSendLimit: 20,
      dailyAutoSendLimit: 50,
      disablePollUntil: null,
      useNightmare: true,
    });
    await act(() => vi.advanceTimersByTimeAsync(3100));
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    // What was saved is the new baseline.
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
  });

  it('sends a typed disable-poll time as the text the server parses', async () => {
    const { calls } = open({
      [routeKey(routes.announcements.saveSystemSettings)]: () =>
        jsonResponse({
          success: true,
          settings: { ...SETTINGS, disablePollUntil: '2025-04-01T00:00:00.000Z' },
          errorMessage: null,
        }),
    });
    fireEvent.change(await screen.findByLabelText('Disable poll until'), {
      target: { value: ' 1 Apr 2025 11:00 AM ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Saved!' });
    expect(posts(calls)[0]?.body).toMatchObject({ disablePollUntil: '1 Apr 2025 11:00 AM' });
    expect(screen.getByLabelText('Disable poll until')).toHaveValue('1 Apr 2025 11:00 AM');
  });

  it("shows a refused save's errorMessage in the 'Save failed' modal", async () => {
    open({
      [routeKey(routes.announcements.saveSystemSettings)]: () =>
        errorResponse(400, 'The westpac announcement service needs WESTPAC_BASE_URL to be set'),
    });
    fireEvent.change(await screen.findByLabelText('Announcement service'), { target: { value: 'westpac' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save failed' });
    expect(dialog).toHaveTextContent('The westpac announcement service needs WESTPAC_BASE_URL to be set');
    expect(screen.getByLabelText('Announcement service')).toHaveValue('westpac');
  });

  it('refuses a limit that is not a whole number, sending nothing', async () => {
    const { calls } = open();
    fireEvent.change(await screen.findByLabelText('Hourly auto-send limit'), { target: { value: '-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save failed' });
    expect(dialog).toHaveTextContent('Hourly auto-send limit must be a whole number of 0 or more');
    expect(posts(calls)).toHaveLength(0);
  });

  it('runs the file cleanup and shows its three tables', async () => {
    const { calls } = open({ [routeKey(routes.announcements.fileCleanup)]: () => jsonResponse(CLEANUP) });
    fireEvent.click(await screen.findByRole('button', { name: 'Run File Cleanup' }));
    const missing = await screen.findByRole('table', { name: 'Missing on disk' });
    expect(calls.some((c) => c.path === routes.announcements.fileCleanup.path)).toBe(true);
    expect(within(missing).getAllByRole('row')[1]).toHaveTextContent(
      'BHP:ASX22 Mar 2025 8:50 AMQuarterly Activities ReportBHP/a1b2.pdf',
    );
    const duplicates = screen.getByRole('table', { name: 'Duplicates' });
    expect(within(duplicates).getAllByRole('row')[1]).toHaveTextContent('2.0 KBBHP/one.pdfCBA/two.pdf');
    const onDisk = screen.getByRole('table', { name: 'On disk but not in database' });
    expect(
      within(onDisk)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['DirectoryFilenameSize', 'CSLorphan.pdf3.0 MB', 'PLSstray.pdf512 B']);
  });

  it('runs the disk report with or without billable stocks', async () => {
    const { calls } = open({ [routeKey(routes.announcements.diskReport)]: () => jsonResponse(DISK) });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Disk Report' }));
    const table = await screen.findByRole('table', { name: 'Disk report' });
    expect(
      calls.find((c) => c.path === routes.announcements.diskReport.path)?.params.get('includeBillable'),
    ).toBe('false');
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'TickerDisk spaceWebsiteAPI keyLast used in report',
      'BHP:ASX5.2 MBwww.bhp.examplekey-122 Mar 2025 8:50 AM',
      'OLD:ASX1.0 MBNever',
    ]);
    expect(within(table).getByRole('link', { name: 'www.bhp.example' })).toHaveAttribute(
      'href',
      'http://www.bhp.example',
    );

    fireEvent.click(screen.getByRole('switch', { name: 'Include billable' }));
    fireEvent.click(screen.getByRole('button', { name: 'Run Disk Report' }));
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path === routes.announcements.diskReport.path)
          .map((c) => c.params.get('includeBillable')),
      ).toEqual(['false', 'true']),
    );
  });

  it('shows the last reconcile on load', async () => {
    open({
      [routeKey(routes.announcements.reconcileLast)]: () =>
        jsonResponse(
          reconcile({
            status: 'applied',
            checked: 4,
            results: FOUND,
            applied: 3,
            completedAt: '2025-03-21T22:00:00.000Z',
          }),
        ),
    });
    expect(await screen.findByText('Applied: 3 announcements stored')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Reconcile results' })).getAllByRole('row')).toHaveLength(
      4,
    );
    expect(screen.queryByRole('button', { name: 'Apply' })).not.toBeInTheDocument();
  });

  it('runs a reconcile after confirming, follows its progress every second, then applies it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    let current = reconcile();
    const { calls } = open({
      [routeKey(routes.announcements.reconcileRun)]: () => jsonResponse(current),
      [routeKey(routes.announcements.reconcileGet, { id: RECONCILE_ID })]: () => jsonResponse(current),
      [routeKey(routes.announcements.reconcileApply, { id: RECONCILE_ID })]: () => {
        current = { ...current, status: 'applied', applied: 3 };
        return jsonResponse(current);
      },
    });
    expect(await screen.findByText('No reconcile has run yet.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Number of days'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run Reconcile' }));
    expect(confirm).toHaveBeenCalledWith(confirmTexts.run('3'));

    expect(await screen.findByText('Running: Checked 1 of 4 stocks')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Reconcile progress' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(posts(calls)[0]?.params.get('numDays')).toBe('3');

    current = reconcile({ checked: 3 });
    await act(() => vi.advanceTimersByTimeAsync(1100));
    expect(await screen.findByText('Running: Checked 3 of 4 stocks')).toBeInTheDocument();

    current = reconcile({
      status: 'completed',
      checked: 4,
      results: FOUND,
      completedAt: '2025-03-21T22:00:00.000Z',
    });
    await act(() => vi.advanceTimersByTimeAsync(1100));
    expect(await screen.findByText('Completed: Checked 4 of 4 stocks')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Reconcile results' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'TickerDateHeadlinePrice sensitive',
      'BHP:ASX21 Mar 2025 9:00 AMChange of Director InterestNo',
      'BHP:ASX22 Mar 2025 9:00 AMQuarterly ReportYes',
      'CSL:ASX20 Mar 2025 10:00 AMDividendYes',
    ]);
    // Polling stops once the run is over.
    const gets = () =>
      calls.filter((c) => c.path === routePath(routes.announcements.reconcileGet, { id: RECONCILE_ID }))
        .length;
    const before = gets();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(gets()).toBe(before);

    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(confirm).toHaveBeenLastCalledWith(
      'Store the 3 missing announcements? Apply stores them, never sends them.',
    );
    expect(await screen.findByText('Applied: 3 announcements stored')).toBeInTheDocument();
    expect(posts(calls).map((c) => c.path)).toEqual([
      routes.announcements.reconcileRun.path,
      routePath(routes.announcements.reconcileApply, { id: RECONCILE_ID }),
    ]);
  });

  it('sends nothing when the reconcile is not confirmed, and shows a refused run', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { calls } = open({
      [routeKey(routes.announcements.reconcileRun)]: () =>
        errorResponse(400, 'numDays: must be from 1 to 90 days'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Reconcile' }));
    expect(posts(calls)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Number of days'), { target: { value: '365' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run Reconcile' }));
    expect(await within(section('Reconcile')).findByRole('alert')).toHaveTextContent(
      'numDays: must be from 1 to 90 days',
    );
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('the market-data tools are for those the gateway lets run them: admins, as the screen', () => {
    // The screen shows them to admins only (isAdmin); a wider or narrower rule on the routes must change it.
    expect(reportsRoutes.syncWatchlist.access).toEqual(access.admin());
    expect(reportsRoutes.runPriorDay.access).toEqual(access.admin());
  });

  it('syncs the watchlist after confirming, shows it running, then the result and each stock that failed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    let answer: (response: Response) => void = () => undefined;
    const { calls } = open({
      [routeKey(routes.reports.syncWatchlist)]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const tools = within(await screen.findByRole('region', { name: 'Market data' }));
    fireEvent.click(tools.getByRole('button', { name: 'Sync Watchlist' }));
    expect(confirm).toHaveBeenCalledWith(marketJobTexts.syncWatchlist.confirm);
    expect(await tools.findByRole('progressbar', { name: 'Sync Watchlist progress' })).toBeInTheDocument();
    expect(tools.getByText('Running...')).toBeInTheDocument();
    await waitFor(() => expect(posts(calls).map((c) => c.path)).toEqual([routes.reports.syncWatchlist.path]));

    answer(
      jsonResponse({
        success: false,
        stocks: 3,
        updated: 2,
        failed: [{ ticker: 'OLD:ASX', errorMessage: 'The market-data provider has no quote of it' }],
        errorMessage: null,
        manualReplaced: ['BHP:ASX'],
      }),
    );
    expect(
      await tools.findByText('Quotes updated: 2 of 3 stocks (manual quotes replaced: BHP:ASX)'),
    ).toBeInTheDocument();
    expect(tools.queryByText('Running...')).not.toBeInTheDocument();
    const rows = within(tools.getByRole('table', { name: 'Sync Watchlist failures' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'TickerProblem',
      'OLD:ASXThe market-data provider has no quote of it',
    ]);
  });

  it("runs the prior day after confirming and shows the day's loads, or the provider's outage", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    let outage = false;
    const { calls } = open({
      [routeKey(routes.reports.runPriorDay)]: () =>
        jsonResponse({
          success: !outage,
          day: '2025-03-21',
          stocks: 2,
          loaded: outage ? 0 : 1,
          skipped: outage ? 0 : 1,
          unpublished: 0,
          trades: outage ? 0 : 340,
          failed: [],
          errorMessage: outage ? 'The market-data provider is unavailable' : null,
        }),
    });
    const tools = within(await screen.findByRole('region', { name: 'Market data' }));
    fireEvent.click(tools.getByRole('button', { name: 'Run Prior Day' }));
    expect(confirm).toHaveBeenCalledWith(marketJobTexts.runPriorDay.confirm);
    expect(posts(calls)).toHaveLength(0);

    fireEvent.click(tools.getByRole('button', { name: 'Run Prior Day' }));
    expect(
      await tools.findByText('2025-03-21: 1 of 2 stocks loaded (340 trades), 1 already loaded'),
    ).toBeInTheDocument();
    outage = true;
    fireEvent.click(tools.getByRole('button', { name: 'Run Prior Day' }));
    expect(
      await tools.findByText(
        '2025-03-21: 0 of 2 stocks loaded (0 trades), 0 already loaded. The market-data provider is unavailable',
      ),
    ).toBeInTheDocument();
    expect(posts(calls).map((c) => c.path)).toEqual([
      routes.reports.runPriorDay.path,
      routes.reports.runPriorDay.path,
    ]);
  });

  it('says which stock-days the provider has not published yet, apart from a failure', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    open({
      [routeKey(routes.reports.runPriorDay)]: () =>
        jsonResponse({
          success: true,
          day: '2025-03-21',
          stocks: 2,
          loaded: 0,
          skipped: 0,
          unpublished: 2,
          trades: 0,
          failed: [],
          errorMessage: null,
        }),
    });
    const tools = within(await screen.findByRole('region', { name: 'Market data' }));
    fireEvent.click(tools.getByRole('button', { name: 'Run Prior Day' }));
    expect(
      await tools.findByText(
        '2025-03-21: 0 of 2 stocks loaded (0 trades), 0 already loaded, 2 not published by the provider yet (asked again at the next run)',
      ),
    ).toBeInTheDocument();
  });

  it('shows a refused market-data job', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    open({
      [routeKey(routes.reports.syncWatchlist)]: () =>
        errorResponse(504, 'The reports service did not answer in time'),
    });
    const tools = within(await screen.findByRole('region', { name: 'Market data' }));
    fireEvent.click(tools.getByRole('button', { name: 'Sync Watchlist' }));
    expect(await tools.findByRole('alert')).toHaveTextContent('The reports service did not answer in time');
  });

  it('says what westpac and iress need where they are chosen: a base URL serving the ASX per-company feed', async () => {
    open();
    const select = await screen.findByLabelText('Announcement service');
    const options = within(select).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'ASX',
      'ASX (second feed)',
      'Westpac (ASX-shaped proxy)',
      'IRESS (ASX-shaped proxy)',
      'Mock (demo data)',
    ]);
    expect(select).toHaveAccessibleDescription(
      'Where announcements are polled from. Generated demo announcements, no network; refused in production.',
    );
    for (const [service, name, variable] of [
      ['westpac', 'Westpac', 'WESTPAC_BASE_URL'],
      ['iress', 'IRESS', 'IRESS_BASE_URL'],
    ] as const) {
      fireEvent.change(select, { target: { value: service } });
      expect(select).toHaveAccessibleDescription(
        `Where announcements are polled from. ${name} publishes no feed the portal knows: ` +
          `${variable} must serve the ASX per-company feed, e.g. a proxy built to that shape ` +
          '(GET /asx/1/company/{CODE}/announcements answering data[] of id, document_release_date, header, market_sensitive and url, ' +
          'and paging_next_url for older pages), each url a PDF or ASX terms page on that host or DOCUMENT_HOSTS. ' +
          `Saving is refused while ${variable} is not set.`,
      );
    }
  });

  it("asks before sending a test email and shows the server's message", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { calls } = open({
      [routeKey(routes.emailMarketing.sendSystemEmail)]: () =>
        errorResponse(503, 'The mail server refused the test email: 451 Try again later'),
    });
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'ops@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    expect(confirm).toHaveBeenCalledWith(confirmTestEmail('ops@example.com'));
    expect(await within(section('Test email')).findByRole('alert')).toHaveTextContent(
      'The mail server refused the test email: 451 Try again later',
    );
    expect(posts(calls)[0]?.body).toEqual({ email: 'ops@example.com' });
  });

  it("says 'Sent!' once the mail server took the test email", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    open({
      [routeKey(routes.emailMarketing.sendSystemEmail)]: () =>
        jsonResponse({ success: true, errorMessage: null }),
    });
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'ops@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    expect(await within(section('Test email')).findByRole('status')).toHaveTextContent('Sent!');
  });

  it('lists the results instead of tables on phones', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    open({ [routeKey(routes.announcements.diskReport)]: () => jsonResponse(DISK) });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Disk Report' }));
    const list = await screen.findByRole('list', { name: 'Disk report' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Disk space5.2 MB');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
