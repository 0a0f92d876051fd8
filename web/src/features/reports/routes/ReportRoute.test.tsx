import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, serveApi, type ApiCall, type Handler } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { NEW_REPORT_GUID, REGENERATE_PATH, REPORT_GUID, REPORT_PATH, reportView } from '../test/fixtures';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));
// Highcharts drawing in jsdom takes seconds a chart; these tests are about the page, so a chart is its title
// here. ReportCharts.test.tsx draws the real ones.
vi.mock('../components/report/ReportChart', () => ({
  ReportChart: ({ options }: { options: { title?: { text?: string } } }) => (
    <figure aria-label={options.title?.text} />
  ),
}));

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === REGENERATE_PATH);
const gets = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET');

describe('Report page', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    window.history.replaceState(null, '', `/report/${REPORT_GUID}`);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    window.history.replaceState(null, '', '/');
  });

  function open(
    report: Handler = () => jsonResponse(reportView()),
    regenerate?: Handler,
    store = storeWith(),
  ) {
    const calls = serveApi(fetchMock, {
      [`GET ${REPORT_PATH}`]: report,
      ...(regenerate ? { [`POST ${REGENERATE_PATH}`]: regenerate } : {}),
    });
    return { calls, ...renderRoute(`/report/${REPORT_GUID}`, { store }) };
  }

  const title = () => screen.findByRole('heading', { level: 2, name: 'BHP Group Limited (BHP:ASX)' });

  it('shows the company, ticker and period, then the sections in the order of spec section 2', async () => {
    open();
    await title();
    expect(screen.getByTestId('report-period-title')).toHaveTextContent('3 Mar 2025 to 7 Mar 2025');
    expect(document.title).toBe('BHP Group Limited (BHP:ASX) · IR Portal');
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Activity summary',
      'Report period',
      'Broker activity: BHP:ASX',
      'Comparative trading activity',
      'Trade analysis',
      'Price comparison',
      'Broker activity (Peers)',
    ]);
    // The charts in the page's order (drawn by Highcharts in ReportCharts.test.tsx and in the browser).
    expect(screen.getAllByRole('figure').map((c) => c.getAttribute('aria-label'))).toEqual([
      'Top 20 brokers of BHP:ASX by value traded',
      'Share of value traded',
      'Price change from the first close',
      'Top 20 brokers of RIO:ASX by value traded',
      'Top 20 brokers of FMG:ASX by value traded',
    ]);
    const peers = within(screen.getByTestId('report-peer-broker-activity'));
    expect(peers.getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual([
      'RIO:ASX',
      'FMG:ASX',
    ]);
  });

  it('shows the figures in dollars and percents, and a missing day as missing, never as zeros', async () => {
    open();
    await title();
    const summary = within(screen.getByTestId('report-activity-summary'));
    expect(summary.getByText('$1,726,118,342.55')).toBeInTheDocument();
    expect(summary.getByText('+3.62%')).toBeInTheDocument();
    expect(summary.getByText('124,816')).toBeInTheDocument();

    const period = within(screen.getByTestId('report-period'));
    expect(period.getByText(/5 trading days, 4 with market data/)).toBeInTheDocument();
    const missing = period.getByRole('table', { name: 'Days with missing market data' });
    expect(within(missing).getByText('5 Mar 2025')).toBeInTheDocument();
    expect(within(missing).getByText('The market-data provider is unavailable (503)')).toBeInTheDocument();

    const days = screen.getByRole('table', { name: 'Trade analysis of BHP:ASX by day' });
    const missingRow = within(days).getByText('5 Mar 2025').closest('tr')!;
    expect(missingRow).toHaveTextContent('Market data missing for this day');
    expect(missingRow).not.toHaveTextContent(/\$0\.00|^0$/);
    const resultsRow = within(days).getByText('6 Mar 2025').closest('tr')!;
    expect(resultsRow).toHaveTextContent('$512,960,130.80');
    expect(resultsRow).toHaveTextContent('Half Year Results and Interim Dividend');
    expect(resultsRow).toHaveTextContent('Price sensitive');
  });

  it('shows each broker share table with the top 20 brokers, money in dollars', async () => {
    open();
    await title();
    const table = screen.getByRole('table', { name: 'Broker share analysis of BHP:ASX' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(21); // the header and 20 brokers
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual([
      'Broker',
      'Total value',
      'Net value',
      'Net volume',
      'Sells',
      'Sell volume',
      'Sell price',
      'Sell value',
      'Buys',
      'Buy volume',
      'Buy price',
      'Buy value',
      'Trades',
      'Traded %',
    ]);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'Tasman Ridge Securities',
      '$30,662,750.00',
      '$4,387,250.00',
      '100,000',
      '700',
      '300,000',
      '$43.7925',
      '$13,137,750.00',
      '900',
      '400,000',
      '$43.8125',
      '$17,525,000.00',
      '1,600',
      '3.55%',
    ]);
    expect(screen.getByRole('table', { name: 'Broker share analysis of FMG:ASX' })).toBeInTheDocument();
  });

  it('shows comparative trading activity in dollars, and the pre-release flags explained', async () => {
    open();
    await title();
    expect(screen.getByTestId('target-value')).toHaveTextContent('Value traded, BHP:ASX: $1,726,118,342.55');
    expect(screen.getByTestId('peer-value')).toHaveTextContent('Value traded, peers: $1,573,684,676.45');

    const preRelease = within(screen.getByTestId('report-pre-release'));
    expect(preRelease.getByText(/over the 5 sessions before the announcement/)).toBeInTheDocument();
    const flags = preRelease.getByRole('table');
    expect(flags).toHaveTextContent('Tasman Ridge Securities');
    expect(flags).toHaveTextContent('Net buying');
    expect(flags).toHaveTextContent('26 Feb 2025 to 4 Mar 2025');
  });

  it('says once that a peer has market data disabled', async () => {
    const view = reportView();
    open(() =>
      jsonResponse(reportView({ reportPeriod: { ...view.reportPeriod, marketDataDisabled: ['CBA:ASX'] } })),
    );
    await title();
    const period = within(screen.getByTestId('report-period'));
    expect(period.getByTestId('market-data-disabled')).toHaveTextContent(
      'CBA:ASX has market data disabled: its trades are not loaded, so it has no figures in this report.',
    );
  });

  it('leaves out comparative trading activity and the price overlay when not generated, and says when no broker stood out', async () => {
    open(() =>
      jsonResponse(
        reportView({
          comparativeTradingActivity: null,
          priceOverlay: false,
          preRelease: { sessionsBefore: 5, baselineSessions: 30, threshold: 4, flags: [] },
        }),
      ),
    );
    await title();
    expect(screen.queryByRole('heading', { name: 'Comparative trading activity' })).not.toBeInTheDocument();
    expect(screen.getByTestId('no-pre-release-flags')).toHaveTextContent(
      "No broker's net position before a price-sensitive announcement stood out.",
    );
    expect(
      screen.queryByRole('region', { name: /^Price change from the first close/ }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Share of value traded/ })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Peer performance' })).toHaveTextContent('-2.66%');
  });

  it('shows the date-range form only when the report allows search', async () => {
    open(() => jsonResponse(reportView({ allowSearch: false })));
    await title();
    expect(screen.queryByRole('form', { name: 'Report dates' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate' })).not.toBeInTheDocument();
  });

  it("generates over other dates: 'Generating...', then the new report at /report/{new guid} without navigating", async () => {
    let answer: (response: Response) => void = () => {};
    const { calls, router } = open(
      undefined,
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    await title();
    const form = within(screen.getByRole('form', { name: 'Report dates' }));
    expect(form.getByLabelText('Start date')).toHaveValue('2025-03-03');
    fireEvent.change(form.getByLabelText('Start date'), { target: { value: '2025-02-03' } });
    fireEvent.change(form.getByLabelText('End date'), { target: { value: '2025-02-28' } });
    fireEvent.click(form.getByRole('button', { name: 'Generate' }));

    expect(await form.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Generating the report...');
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.body).toEqual({
      Guid: REPORT_GUID,
      StartDate: '2025-02-03',
      EndDate: '2025-02-28',
    });

    const generated = reportView({
      guid: NEW_REPORT_GUID,
      startDate: '2025-02-03',
      endDate: '2025-02-28',
      companyName: 'BHP Group Limited',
    });
    answer(jsonResponse({ report: generated, errorMessage: null }));

    await waitFor(() => expect(window.location.pathname).toBe(`/report/${NEW_REPORT_GUID}`));
    expect(await screen.findByTestId('report-period-title')).toHaveTextContent('3 Feb 2025 to 28 Feb 2025');
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled();
    expect(screen.getByLabelText('Start date')).toHaveValue('2025-02-03');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    // Shown from the answer: no navigation and no read of the new report.
    expect(router.state.location.pathname).toBe(`/report/${REPORT_GUID}`);
    expect(gets(calls)).toHaveLength(1);
  });

  it("shows the server's errorMessage in an error box when generating is refused (400)", async () => {
    const message = 'The end date 2025-01-01 is before the start date 2025-02-01';
    open(undefined, () => errorResponse(400, message));
    await title();
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2025-02-01' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2025-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(window.location.pathname).toBe(`/report/${REPORT_GUID}`);
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled();
    // The report shown stays the one of the address.
    expect(screen.getByTestId('report-period-title')).toHaveTextContent('3 Mar 2025 to 7 Mar 2025');
  });

  it("says 'Report not found' in an error box for an unknown guid", async () => {
    open(() => errorResponse(404, 'Report not found'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Report not found');
    expect(screen.getByRole('heading', { level: 2, name: 'Report' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Report dates' })).not.toBeInTheDocument();
  });

  it('shows no header, even to a signed-in user', async () => {
    open(undefined, undefined, storeWith(sessionUser('admin', { Admin: true })));
    await title();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });
});
