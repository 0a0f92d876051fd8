import { act, fireEvent, screen, within } from '@testing-library/react';
import type { ReportSummary } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { errorResponse, routeKey, serveApi, type ApiCall, type Handler } from '@/test/fakeApi';
import { bhpStock } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });
const reportRunner = sessionUser('reports', { RunReports: true });
const STOCK: StaffStock = { ...bhpStock(), announcements: [], initialPoll: null, unavailable: [] };

const summary = (guid: string, fields: Partial<ReportSummary> = {}): ReportSummary => ({
  guid,
  created: '2026-11-20T01:00:00.000Z',
  ticker: 'BHP:ASX',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  peers: [],
  comparativeTradingActivity: false,
  priceOverlay: false,
  allowSearch: true,
  ...fields,
});
const OLD = summary('0ld0000000000000000000000000000a');
const NEW = summary('9e0000000000000000000000000000ff', {
  created: '2026-11-28T01:00:00.000Z',
  startDate: '2026-11-02',
  endDate: '2026-11-27',
  peers: ['RIO:ASX', 'FMG:ASX'],
  comparativeTradingActivity: true,
});

const GENERATE = routeKey(routes.reports.generateReport);

/** A window as window.open gives it: where it was sent, whether it was closed. */
function fakeWindow() {
  return {
    closed: false,
    close: vi.fn(),
    location: { href: '' },
    document: { title: '', body: { textContent: '' } },
  };
}

describe('staff Reports tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const opened = fakeWindow();
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 28 Nov 2026 in Sydney: the default range is October.
    vi.setSystemTime(new Date('2026-11-28T02:00:00Z'));
    vi.stubGlobal('fetch', fetchMock);
    Object.assign(opened, fakeWindow());
    vi.spyOn(window, 'open').mockReturnValue(opened as unknown as Window);
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
  });

  function open(handlers: Record<string, Handler> = {}, user = admin) {
    let list = [OLD];
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.get, { combinedTicker: 'BHP:ASX' })]: () => jsonResponse(STOCK),
      [routeKey(routes.reports.reports)]: () => jsonResponse(list),
      [GENERATE]: () => {
        list = [NEW, ...list];
        return jsonResponse({ report: { guid: NEW.guid }, errorMessage: null });
      },
      ...handlers,
    });
    renderRoute('/stocks/BHP:ASX/reports', { store: storeWith(user) });
    return calls;
  }

  const field = (label: string) => screen.getByLabelText(label);
  const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
  const reportLinks = () =>
    within(screen.getByRole('table', { name: 'Reports' }))
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));

  it('starts on the previous calendar month and lists the stock’s reports', async () => {
    const calls = open();
    expect(await screen.findByLabelText('Start Date')).toHaveValue('2026-10-01');
    expect(field('End Date')).toHaveValue('2026-10-31');
    expect(screen.getByText('22 trading days')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '2026-10-01 to 2026-10-31' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(calls.find((c) => c.path === routes.reports.reports.path)?.params.get('ticker')).toBe('BHP:ASX');
  });

  it('Generate sends the form, opens the new report in a new window and puts it at the top of the list', async () => {
    const calls = open();
    await screen.findByRole('link', { name: '2026-10-01 to 2026-10-31' });
    type('Start Date', '2026-11-02');
    type('End Date', '2026-11-27');
    type('Peers', 'RIO FMG');
    fireEvent.click(screen.getByRole('switch', { name: 'Comparative Trading Activity' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    });
    await screen.findByRole('link', { name: '2026-11-02 to 2026-11-27' });
    const sent: ApiCall[] = calls.filter((c) => `${c.method} ${c.path}` === GENERATE);
    expect(sent.map((c) => c.body)).toEqual([
      {
        Ticker: 'BHP:ASX',
        StartDate: '2026-11-02',
        EndDate: '2026-11-27',
        Peers: 'RIO FMG',
        ComparativeTradingActivity: 'true',
        PriceOverlay: 'false',
        AllowSearch: 'false',
      },
    ]);
    // The window was opened at the click, then sent to the report.
    expect(window.open).toHaveBeenCalledWith('', '_blank');
    expect(opened.location.href).toBe(`/report/${NEW.guid}`);
    expect(reportLinks()).toEqual([`/report/${NEW.guid}`, `/report/${OLD.guid}`]);
    expect(window.alert).not.toHaveBeenCalled();
  });

  it("'Allow search' starts off; ticked, the report is made with the public page's date-range search", async () => {
    const calls = open();
    await screen.findByRole('link', { name: '2026-10-01 to 2026-10-31' });
    const allowSearch = screen.getByRole('switch', { name: 'Allow search' });
    expect(allowSearch).not.toBeChecked();
    fireEvent.click(allowSearch);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    });
    await screen.findByRole('link', { name: '2026-11-02 to 2026-11-27' });
    const sent = calls.filter((c) => `${c.method} ${c.path}` === GENERATE);
    expect(sent.map((c) => (c.body as Record<string, string>).AllowSearch)).toEqual(['true']);
  });

  it('the list says which reports allow search', async () => {
    open({
      [routeKey(routes.reports.reports)]: () =>
        jsonResponse([NEW, summary(OLD.guid, { allowSearch: false })]),
    });
    await screen.findByRole('link', { name: '2026-10-01 to 2026-10-31' });
    const table = screen.getByRole('table', { name: 'Reports' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toContain('Search');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').at(-1)?.textContent)).toEqual(['Yes', 'No']);
  });

  it('shows Generating... and the progress while the report is computed', async () => {
    let answer: (r: Response) => void = () => undefined;
    open({ [GENERATE]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await screen.findByLabelText('Start Date');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    });
    expect(screen.getByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(screen.getByRole('status', { name: 'Report progress' })).toHaveTextContent(
      'Generating the report over 22 trading days',
    );
    await act(async () => answer(jsonResponse({ report: { guid: NEW.guid }, errorMessage: null })));
    expect(await screen.findByRole('button', { name: 'Generate' })).toBeEnabled();
  });

  it('a refusal is an alert of its errorMessage and the waiting window closes', async () => {
    open({
      [GENERATE]: () => errorResponse(400, 'The end date 2026-11-01 is before the start date 2026-11-02'),
    });
    await screen.findByLabelText('Start Date');
    type('Start Date', '2026-11-02');
    type('End Date', '2026-11-01');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    });
    expect(window.alert).toHaveBeenCalledWith('The end date 2026-11-01 is before the start date 2026-11-02');
    expect(opened.close).toHaveBeenCalled();
    expect(opened.location.href).toBe('');
  });

  it('is the report-runner’s only tab', async () => {
    open({}, reportRunner);
    expect(await screen.findByLabelText('Start Date')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Reports']);
  });
});
