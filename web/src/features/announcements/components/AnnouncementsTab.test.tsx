import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Announcement, InitialPollProgress } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { bhpStock } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { announcement, runningPoll, STOCK_ID } from '../test/fixtures';
import { errorResponse, serveApi, type Handler, routeKey, routePath } from '@/test/fakeApi';
import { ANNOUNCEMENTS_UNAVAILABLE } from './AnnouncementsTab';
import { confirmTexts, SENT_STATE_UNAVAILABLE } from './AnnouncementsPanel';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });

const STOCK: StaffStock = {
  ...bhpStock({ id: STOCK_ID, autoSendFilter: 'appendix\\s*3[by]' }),
  announcements: [],
  initialPoll: null,
  unavailable: [],
};

const OLDER = announcement({
  headline: 'Quarterly Activities Report',
  date: '2025-01-10T22:30:00.000Z',
  priceSensitive: true,
  sent: true,
  sendHistory: [
    { timestamp: '2025-01-10T23:00:00.000Z', emailAddress: 'a@example.com' },
    { timestamp: '2025-01-10T23:00:01.000Z', emailAddress: 'b@example.com' },
  ],
  sendRequestedAt: '2025-01-10T22:59:00.000Z',
  hits: 12,
  numComments: 3,
  alertLatencyMs: 1_800_000,
});
const NEWEST = announcement({
  headline: 'Appendix 3Y Change of Director Interest',
  headlineOriginal: 'Appendix 3Y',
  date: '2025-03-21T21:50:00.000Z',
  autoSend: 'filtered',
  hits: 4,
});
const DELETED = announcement({
  headline: 'Withdrawn Notice',
  date: '2025-02-01T00:00:00.000Z',
  deletedOn: '2025-02-02T03:15:00.000Z',
  fileProblem: 'The file is not a PDF',
  pdfUrl: null,
  localPath: null,
});

const withAnnouncements = (list: Announcement[], overrides: Partial<StaffStock> = {}): StaffStock => ({
  ...STOCK,
  announcements: list,
  ...overrides,
});

describe('staff Announcements tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    fetchMock.mockReset();
  });

  function open(stock: StaffStock | (() => StaffStock), handlers: Record<string, Handler> = {}) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.get, { combinedTicker: 'BHP:ASX' })]: () =>
        jsonResponse(typeof stock === 'function' ? stock() : stock),
      ...handlers,
    });
    return { calls, ...renderRoute('/stocks/BHP:ASX/announcements', { store: storeWith(admin) }) };
  }

  const rows = async () => within(await screen.findByTestId('announcement-rows')).getAllByRole('row');
  const stockGets = (calls: { method: string; path: string }[]) =>
    calls.filter(
      (c) => c.method === 'GET' && c.path === routePath(routes.stocks.get, { combinedTicker: 'BHP:ASX' }),
    ).length;

  async function openMenu(headline: string) {
    fireEvent.click(await screen.findByRole('button', { name: `Actions for ${headline}` }));
    return screen.findAllByRole('menuitem');
  }

  async function choose(headline: string, item: string) {
    const items = await openMenu(headline);
    const target = items.find((i) => i.textContent === item);
    if (!target) throw new Error(`no menu item ${item}`);
    fireEvent.click(target);
  }

  it('lists the announcements newest first with Sydney dates, views, comments and the PDF link', async () => {
    open(withAnnouncements([OLDER, NEWEST, DELETED]));
    const [first, second, third] = await rows();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Date',
      'Headline',
      'Views',
      'Comments',
      'Alert',
      'Actions',
    ]);
    expect(first).toHaveTextContent('22 Mar 2025 8:50 AM');
    expect(first).toHaveTextContent(NEWEST.headline);
    expect(second).toHaveTextContent(DELETED.headline);
    expect(third).toHaveTextContent('11 Jan 2025 9:30 AM');
    // Its alert latency: release to the first subscriber mail accepted.
    expect(third).toHaveTextContent('30 min');
    const cells = within(third as HTMLElement).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent('12');
    expect(cells[3]).toHaveTextContent('3');
    const link = within(third as HTMLElement).getByRole('link', { name: OLDER.headline });
    expect(link).toHaveAttribute('href', routePath(routes.announcements.pdf, { sendGuid: OLDER.sendGuid }));
    expect(link).toHaveAttribute('target', '_blank');
    // No stored file: no link.
    expect(within(second as HTMLElement).queryByRole('link')).not.toBeInTheDocument();
    // The page's Save shows here too (spec section 2: on every tab but Notes and Reports).
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Announcement' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resync' })).toBeInTheDocument();
  });

  it('loads the older announcements after the page’s newest, and reloads them after a change to one', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let deleted = false;
    const { calls } = open(withAnnouncements([NEWEST], { announcementsNext: NEWEST.id }), {
      [routeKey(routes.announcements.list, { combinedTicker: 'BHP:ASX' })]: ({ params }) =>
        params.get('after') === NEWEST.id
          ? jsonResponse({
              announcements: [{ ...OLDER, deletedOn: deleted ? '2025-04-01T00:00:00.000Z' : null }, DELETED],
              initialPoll: null,
              next: null,
            })
          : errorResponse(404, 'unexpected page'),
      [routeKey(routes.announcements.delete, { combinedTicker: 'BHP:ASX' })]: () => {
        deleted = true;
        return jsonResponse({ success: true, announcement: OLDER, errorMessage: null });
      },
    });
    await waitFor(async () => expect(await rows()).toHaveLength(3));
    expect((await rows()).map((r) => r.textContent)).toEqual([
      expect.stringContaining(NEWEST.headline),
      expect.stringContaining(DELETED.headline),
      expect.stringContaining(OLDER.headline),
    ]);
    expect(within((await rows())[2] as HTMLElement).getByText(OLDER.headline)).not.toHaveStyle({
      textDecoration: 'line-through',
    });

    // Deleting one of the older page's announcements fetches that page again: it shows struck through.
    await choose(OLDER.headline, 'Delete');
    await waitFor(async () => {
      const again = (await rows())[2];
      expect(within(again as HTMLElement).getByText(OLDER.headline)).toHaveStyle({
        textDecoration: 'line-through',
      });
    });
    const pages = calls.filter((c) => c.path.startsWith('/api/Announcement/list/'));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages.every((c) => c.params.get('after') === NEWEST.id)).toBe(true);
  });

  it('shows the icons: sent with its history, price sensitive, deleted, original headline and flags', async () => {
    open(withAnnouncements([OLDER, NEWEST, DELETED]));
    const [first, second, third] = await rows();
    const icons = (row: HTMLElement | undefined) =>
      within(row as HTMLElement)
        .queryAllByRole('img')
        .map((icon) => icon.getAttribute('aria-label'));

    expect(icons(third)).toEqual(['Sent (2 in send history)', 'Price sensitive']);
    expect(icons(first)).toEqual([
      'Original headline: Appendix 3Y',
      'Not sent automatically: matches the auto-send filter',
    ]);
    expect(icons(second)).toEqual(['Deleted 2 Feb 2025 2:15 PM', 'File problem: The file is not a PDF']);
    expect(second).toHaveAttribute('data-deleted', 'true');
    expect(within(second as HTMLElement).getByText(DELETED.headline)).toHaveStyle({
      textDecoration: 'line-through',
    });

    fireEvent.mouseEnter(within(third as HTMLElement).getByRole('img', { name: 'Sent (2 in send history)' }));
    expect(await screen.findByText('11 Jan 2025 10:00 AM a@example.com')).toBeInTheDocument();
    fireEvent.mouseEnter(within(second as HTMLElement).getByRole('img', { name: /^Deleted/ }));
    expect(await screen.findByText('Deleted 2 Feb 2025 2:15 PM', { selector: 'div' })).toBeInTheDocument();
  });

  it('offers admins Edit, Send Email, Send Confirmation Email and Delete; a deleted one has no Delete', async () => {
    open(withAnnouncements([OLDER, DELETED]));
    expect((await openMenu(OLDER.headline)).map((i) => i.textContent)).toEqual([
      'Edit',
      'Send Email',
      'Send Confirmation Email',
      'Delete',
    ]);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryAllByRole('menuitem')).toHaveLength(0));
    expect((await openMenu(DELETED.headline)).map((i) => i.textContent)).toEqual(['Edit']);
  });

  it('sends an unsent announcement after one confirmation, without the override, and says Sent!', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { calls } = open(withAnnouncements([NEWEST]), {
      [routeKey(routes.announcements.send, { combinedTicker: 'BHP:ASX' })]: () =>
        jsonResponse({
          success: true,
          announcement: { ...NEWEST, sendRequestedAt: '2025-03-22T00:00:00.000Z' },
          errorMessage: null,
        }),
    });
    await choose(NEWEST.headline, 'Send Email');
    expect(await screen.findByText('Sent!')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenCalledWith(confirmTexts.send(NEWEST.headline));
    const send = calls.find((c) => c.method === 'POST');
    expect(send?.params.has('sendOverride')).toBe(false);
    expect(send?.body).toMatchObject({ sendGuid: NEWEST.sendGuid });
    // The stock (and so the list) is fetched again.
    await waitFor(() => expect(stockGets(calls)).toBe(2));
  });

  it('asks a second time before sending a sent announcement again, then sends with sendOverride=true', async () => {
    const confirm = vi
      .spyOn(window, 'confirm')
      .mockReturnValueOnce(true)
      .mockReturnValueOnce(false)
      .mockReturnValueOnce(true)
      .mockReturnValueOnce(true);
    const { calls } = open(withAnnouncements([OLDER]), {
      [routeKey(routes.announcements.send, { combinedTicker: 'BHP:ASX' })]: () =>
        jsonResponse({ success: true, announcement: OLDER, errorMessage: null }),
    });
    // Declining the second confirmation sends nothing.
    await choose(OLDER.headline, 'Send Email');
    expect(confirm).toHaveBeenNthCalledWith(
      2,
      'This announcement has already been sent. Confirm to send it again.',
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await choose(OLDER.headline, 'Send Email');
    expect(await screen.findByText('Sent!')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledTimes(4);
    const send = calls.find((c) => c.method === 'POST');
    expect(send?.path).toBe(routePath(routes.announcements.send, { combinedTicker: 'BHP:ASX' }));
    expect(send?.params.get('sendOverride')).toBe('true');
  });

  it("shows a send failure's errorMessage in a modal", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    open(withAnnouncements([NEWEST]), {
      [routeKey(routes.announcements.send, { combinedTicker: 'BHP:ASX' })]: () =>
        errorResponse(
          400,
          'No sending channel is switched on for BHP: turn on Email or email marketing sending on the Config tab',
        ),
    });
    await choose(NEWEST.headline, 'Send Email');
    const dialog = await screen.findByRole('dialog', { name: 'Send failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'No sending channel is switched on for BHP: turn on Email or email marketing sending on the Config tab',
    );
    expect(screen.queryByText('Sent!')).not.toBeInTheDocument();
  });

  it('sends the confirmation email after confirming and says Sent!', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { calls } = open(withAnnouncements([NEWEST]), {
      [routeKey(routes.announcements.sendConfirmation, { combinedTicker: 'BHP:ASX' })]: () =>
        jsonResponse({ success: true, recipients: ['ir@bhp.example'], errorMessage: null }),
    });
    await choose(NEWEST.headline, 'Send Confirmation Email');
    expect(await screen.findByText('Sent!')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith(confirmTexts.sendConfirmation(NEWEST.headline));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ sendGuid: NEWEST.sendGuid });
  });

  it("deletes after confirming; a failure reads 'Error deleting announcement: …'", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { calls } = open(withAnnouncements([NEWEST]), {
      [routeKey(routes.announcements.delete, { combinedTicker: 'BHP:ASX' })]: () =>
        errorResponse(400, 'The announcement is already deleted'),
    });
    await choose(NEWEST.headline, 'Delete');
    expect(confirm).toHaveBeenCalledWith(confirmTexts.delete(NEWEST.headline));
    const dialog = await screen.findByRole('dialog', { name: 'Delete failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Error deleting announcement: The announcement is already deleted',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ sendGuid: NEWEST.sendGuid });
  });

  it('sends nothing when a confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { calls } = open(withAnnouncements([NEWEST]));
    await choose(NEWEST.headline, 'Delete');
    await choose(NEWEST.headline, 'Send Confirmation Email');
    fireEvent.click(screen.getByRole('button', { name: 'Resync' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('adds an announcement with its PDF as multipart and fetches the stock again', async () => {
    const { calls } = open(withAnnouncements([]), {
      [routeKey(routes.announcements.save, { combinedTicker: 'BHP:ASX' })]: () =>
        jsonResponse({ success: true, announcement: NEWEST, errorMessage: null }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Announcement' });
    // Sydney time now, in the spec's format.
    expect((within(dialog).getByLabelText('Date') as HTMLInputElement).value).toMatch(
      /^\d{1,2} \w{3} \d{4} \d{1,2}:\d{2} [AP]M$/,
    );
    const pdf = within(dialog).getByLabelText('PDF');
    expect(pdf).toHaveAttribute('accept', 'application/pdf');
    expect(within(dialog).queryByLabelText('URL')).not.toBeInTheDocument();

    fireEvent.change(within(dialog).getByLabelText('Headline'), { target: { value: 'Half Year Results' } });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '22 Mar 2025 8:50 AM' } });
    fireEvent.click(within(dialog).getByLabelText('Price sensitive'));
    fireEvent.change(within(dialog).getByLabelText('Video URL'), {
      target: { value: 'https://video.example/1' },
    });
    fireEvent.change(within(dialog).getByLabelText('Video description'), { target: { value: 'Webcast' } });
    fireEvent.change(within(dialog).getByLabelText('Thumbnail page number'), { target: { value: '2' } });
    // File and FormData are Node's here, as fetch is (src/test/jsdomEnvironment.ts): the PDF goes as a file
    // part of the multipart body, and the fake API reads it back by name.
    const file = new File(['%PDF-1.4 results'], 'results.pdf', { type: 'application/pdf' });
    fireEvent.change(pdf, { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const save = calls.find((c) => c.method === 'POST');
    expect(save?.path).toBe(routePath(routes.announcements.save, { combinedTicker: 'BHP:ASX' }));
    expect(save?.body).toEqual({
      headline: 'Half Year Results',
      date: '22 Mar 2025 8:50 AM',
      remotePath: '',
      priceSensitive: 'true',
      videoUrl: 'https://video.example/1',
      videoDescription: 'Webcast',
      thumbnailPageNum: '2',
      file: 'File results.pdf',
    });
    await waitFor(() => expect(stockGets(calls)).toBe(2));
  });

  it("shows a refused save as 'Save Failed! {message}' and keeps the form open", async () => {
    open(withAnnouncements([]), {
      [routeKey(routes.announcements.save, { combinedTicker: 'BHP:ASX' })]: () =>
        errorResponse(400, 'Unable to parse date tomorrow'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Announcement' });
    fireEvent.change(within(dialog).getByLabelText('Headline'), { target: { value: 'Results' } });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: 'tomorrow' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Save Failed! Unable to parse date tomorrow',
    );
    expect(within(dialog).getByLabelText('Headline')).toHaveValue('Results');
  });

  it('edits an announcement, naming it by its current headline, date and sendGuid', async () => {
    const { calls } = open(withAnnouncements([OLDER]), {
      [routeKey(routes.announcements.save, { combinedTicker: 'BHP:ASX' })]: () =>
        jsonResponse({ success: true, announcement: OLDER, errorMessage: null }),
    });
    await choose(OLDER.headline, 'Edit');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Announcement' });
    expect(within(dialog).getByLabelText('Headline')).toHaveValue(OLDER.headline);
    expect(within(dialog).getByLabelText('Date')).toHaveValue('11 Jan 2025 9:30 AM');
    expect(within(dialog).getByLabelText('Price sensitive')).toBeChecked();
    fireEvent.change(within(dialog).getByLabelText('Headline'), { target: { value: 'Quarterly Report' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      headline: 'Quarterly Report',
      date: '11 Jan 2025 9:30 AM',
      priceSensitive: 'true',
      existingAnnouncementHeadline: OLDER.headline,
      existingAnnouncementDate: '11 Jan 2025 9:30 AM',
      sendGuid: OLDER.sendGuid,
    });
  });

  it('resyncs after confirming: Sync in Progress with its progress, then the buttons again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const run: InitialPollProgress = runningPoll();
    let current: StaffStock = withAnnouncements([OLDER]);
    const { calls } = open(() => current, {
      [routeKey(routes.announcements.resync)]: () => {
        current = withAnnouncements([OLDER], { initialPoll: run });
        return jsonResponse({ success: true, initialPoll: run });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Resync' }));
    expect(confirm).toHaveBeenCalledWith(confirmTexts.resync('BHP'));

    const progress = await screen.findByTestId('sync-progress');
    expect(progress).toHaveTextContent('Sync in Progress: 2019 of 2026, 340 announcements');
    expect(within(progress).getByRole('progressbar', { name: 'Sync progress' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    // The page's label shows the same progress, and Save and Add are hidden.
    expect(screen.getByTestId('sync-in-progress')).toHaveTextContent(
      'Sync in Progress: 2019 of 2026, 340 announcements',
    );
    expect(screen.queryByRole('button', { name: 'Add Announcement' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resync' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    const resync = calls.find((c) => c.method === 'POST');
    expect(resync?.path).toBe(routes.announcements.resync.path);
    expect(resync?.params.get('ticker')).toBe('BHP:ASX');

    // Two seconds later the stock is fetched again and shows the next year.
    current = withAnnouncements([OLDER], { initialPoll: { ...run, currentYear: 2023, found: 900 } });
    await act(() => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() =>
      expect(screen.getByTestId('sync-progress')).toHaveTextContent(
        'Sync in Progress: 2023 of 2026, 900 announcements',
      ),
    );
    expect(within(screen.getByTestId('sync-progress')).getByRole('progressbar')).toHaveAttribute(
      'aria-valuenow',
      '50',
    );

    current = withAnnouncements([OLDER, NEWEST], {
      initialPoll: {
        ...run,
        status: 'completed',
        currentYear: 2026,
        found: 1200,
        completedAt: '2026-01-05T00:10:00.000Z',
      },
    });
    await act(() => vi.advanceTimersByTimeAsync(2100));
    expect(await screen.findByRole('button', { name: 'Add Announcement' })).toBeInTheDocument();
    expect(screen.queryByTestId('sync-progress')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sync-in-progress')).not.toBeInTheDocument();
    expect(await rows()).toHaveLength(2);
  });

  it('shows the progress instead of the buttons while the initial poll is incomplete', async () => {
    open(withAnnouncements([], { completedInitialPoll: false, initialPoll: null }));
    expect(await screen.findByTestId('sync-progress')).toHaveTextContent('Sync in Progress');
    expect(screen.queryByRole('button', { name: 'Add Announcement' })).not.toBeInTheDocument();
    expect(screen.getByText('No announcements yet.')).toBeInTheDocument();
  });

  it('says so when the announcements service did not answer', async () => {
    open(withAnnouncements([], { announcements: null, unavailable: ['announcements'] }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ANNOUNCEMENTS_UNAVAILABLE);
    expect(screen.queryByRole('button', { name: 'Add Announcement' })).not.toBeInTheDocument();
  });

  it('says who was mailed is unknown when the email-marketing service did not answer, and still lists', async () => {
    open(withAnnouncements([OLDER, NEWEST], { unavailable: ['email-marketing'] }));
    expect(await screen.findByRole('status')).toHaveTextContent(SENT_STATE_UNAVAILABLE);
    expect(await rows()).toHaveLength(2);
  });

  it("links a Comments count to the announcement's comments, and leaves 0 as plain text", async () => {
    open(withAnnouncements([OLDER, NEWEST]));
    const [newest, older] = await rows();
    const link = within(older as HTMLElement).getByRole('link', { name: `3 comments on ${OLDER.headline}` });
    expect(link).toHaveTextContent('3');
    expect(link).toHaveAttribute('href', `/AnnouncementComments/BHP:ASX/${OLDER.sendGuid}`);
    const newestComments = within(newest as HTMLElement).getAllByRole('cell')[3];
    expect(newestComments).toHaveTextContent('0');
    expect(within(newestComments as HTMLElement).queryByRole('link')).not.toBeInTheDocument();

    fireEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Announcement Comments' })).toBeInTheDocument();
  });

  it('lists cards instead of the table on phones', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    open(withAnnouncements([OLDER, NEWEST]));
    const list = await screen.findByRole('list', { name: 'Announcements' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent(NEWEST.headline);
    expect(cards[1]).toHaveTextContent('Views 12 · Comments 3 · Alert 30 min');
    expect(
      within(cards[1] as HTMLElement).getByRole('link', { name: `3 comments on ${OLDER.headline}` }),
    ).toHaveAttribute('href', `/AnnouncementComments/BHP:ASX/${OLDER.sendGuid}`);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(
      within(cards[1] as HTMLElement).getByRole('button', { name: `Actions for ${OLDER.headline}` }),
    ).toBeInTheDocument();
  });
});
