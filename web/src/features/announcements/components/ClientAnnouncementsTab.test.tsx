import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  STOCK_LIST_UNAVAILABLE_HEADER,
  type Announcement,
  type AnnouncementList,
  type ClientStockDto,
} from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientStockDto } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { announcement, runningPoll } from '../test/fixtures';
import { errorResponse, serveApi, type Handler, routeKey, routePath } from '@/test/fakeApi';
import { routes } from '@/api/routes';
import { OLDER_FAILED_TITLE, SENT_STATE_UNAVAILABLE, olderLoadingText } from './AnnouncementsPanel';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const SENT = announcement({
  headline: 'Annual Report',
  date: '2025-02-20T22:00:00.000Z',
  sent: true,
  sendHistory: [{ timestamp: '2025-02-20T23:00:00.000Z', emailAddress: 'a@example.com' }],
});
const NEW = announcement({ headline: 'Investor Presentation', date: '2025-03-21T21:50:00.000Z' });

describe('client Announcements tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(
    roles: string[],
    list: AnnouncementList = { announcements: [SENT, NEW], initialPoll: null, next: null },
    overrides: Partial<ClientStockDto> = {},
    handlers: Record<string, Handler> = {},
  ) {
    const stock = clientStockDto('BHP', { roles, ...overrides });
    const user = sessionUser('client', {}, { [stock.id]: roles });
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.clientGet)]: () => jsonResponse(stock),
      [routeKey(routes.announcements.list, { combinedTicker: stock.combinedTicker })]: () =>
        jsonResponse(list),
      ...handlers,
    });
    renderRoute(`/client-stocks/${stock.combinedTicker}?tab=announcements`, { store: storeWith(user) });
    return { calls, stock };
  }

  async function menuOf(item: Announcement) {
    fireEvent.click(await screen.findByRole('button', { name: `Actions for ${item.headline}` }));
    return (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
  }

  it('lists the stock’s announcements newest first through the list route, without the page Save', async () => {
    const { calls } = open(['EditAnnouncements']);
    const rows = within(await screen.findByTestId('announcement-rows')).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(NEW.headline);
    expect(rows[1]).toHaveTextContent(SENT.headline);
    expect(
      calls.some((c) => c.path === routePath(routes.announcements.list, { combinedTicker: 'BHP:ASX' })),
    ).toBe(true);
    expect(screen.getByRole('button', { name: 'Add Announcement' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resync' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shows the newest page at once and then the older pages one after the other, with their progress', async () => {
    const OLD = announcement({ headline: 'Annual Report 2006', date: '2006-08-20T22:00:00.000Z' });
    let releaseLast: () => void = () => undefined;
    const lastPage = new Promise<void>((resolve) => (releaseLast = resolve));
    const { calls } = open(
      ['EditAnnouncements'],
      undefined,
      {},
      {
        [routeKey(routes.announcements.list, { combinedTicker: 'BHP:ASX' })]: async ({ params }) => {
          const after = params.get('after');
          if (after === null) return jsonResponse({ announcements: [NEW], initialPoll: null, next: NEW.id });
          if (after === NEW.id)
            return jsonResponse({ announcements: [SENT], initialPoll: null, next: SENT.id });
          await lastPage;
          return jsonResponse({ announcements: [OLD], initialPoll: null, next: null });
        },
      },
    );
    // The first two pages shown while the third is on its way, and said so.
    expect(await screen.findByText(olderLoadingText(2))).toBeInTheDocument();
    const rows = () => within(screen.getByTestId('announcement-rows')).getAllByRole('row');
    expect(rows().map((r) => r.textContent)).toEqual([
      expect.stringContaining(NEW.headline),
      expect.stringContaining(SENT.headline),
    ]);
    releaseLast();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[2]).toHaveTextContent(OLD.headline);
    expect(screen.queryByText(/Loading older announcements/)).not.toBeInTheDocument();
    // Each page asked once, after the one before.
    const afters = calls
      .filter((c) => c.path.startsWith('/api/Announcement/list/'))
      .map((c) => c.params.get('after'));
    expect(afters).toEqual([null, NEW.id, SENT.id]);
  });

  it('keeps the pages it has when an older page fails, and says why', async () => {
    open(
      ['EditAnnouncements'],
      undefined,
      {},
      {
        [routeKey(routes.announcements.list, { combinedTicker: 'BHP:ASX' })]: ({ params }) =>
          params.get('after') === null
            ? jsonResponse({ announcements: [NEW, SENT], initialPoll: null, next: SENT.id })
            : errorResponse(
                404,
                'The announcements of BHP:ASX changed since this list was read: reload the page to see them',
              ),
      },
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(OLDER_FAILED_TITLE);
    expect(alert).toHaveTextContent('changed since this list was read');
    expect(within(screen.getByTestId('announcement-rows')).getAllByRole('row')).toHaveLength(2);
  });

  it('gives EditAnnouncements alone Edit and Delete, without Send Email or the confirmation email', async () => {
    open(['EditAnnouncements']);
    expect(await menuOf(NEW)).toEqual(['Edit', 'Delete']);
  });

  it('adds Send Email for holders of SendMailchimp on the stock', async () => {
    open(['EditAnnouncements', 'SendMailchimp']);
    expect(await menuOf(NEW)).toEqual(['Edit', 'Send Email', 'Delete']);
  });

  it('resends only after the second confirmation, with sendOverride=true', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { calls } = open(
      ['EditAnnouncements', 'SendMailchimp'],
      undefined,
      {},
      {
        [routeKey(routes.announcements.send, { combinedTicker: 'BHP:ASX' })]: () =>
          jsonResponse({ success: true, announcement: SENT, errorMessage: null }),
      },
    );
    await menuOf(SENT);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Send Email' }));
    expect(await screen.findByText('Sent!')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledTimes(2);
    const send = calls.find((c) => c.method === 'POST');
    expect(send?.params.get('sendOverride')).toBe('true');
    // The list is fetched again.
    await waitFor(() =>
      expect(
        calls.filter((c) => c.path === routePath(routes.announcements.list, { combinedTicker: 'BHP:ASX' })),
      ).toHaveLength(2),
    );
  });

  it("shows the delete failure as 'Error deleting announcement: …'", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    open(
      ['EditAnnouncements'],
      undefined,
      {},
      {
        [routeKey(routes.announcements.delete, { combinedTicker: 'BHP:ASX' })]: () =>
          errorResponse(404, `Announcement ${NEW.sendGuid} not found`),
      },
    );
    await menuOf(NEW);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete failed' });
    expect(dialog).toHaveTextContent(`Error deleting announcement: Announcement ${NEW.sendGuid} not found`);
  });

  it('asks a non-ASX stock for the URL instead of a PDF', async () => {
    const { calls } = open(
      ['EditAnnouncements'],
      { announcements: [], initialPoll: null, next: null },
      {
        ticker: 'VOD',
        exchange: 'LSE',
        combinedTicker: 'VOD:LSE',
      },
      {
        [routeKey(routes.announcements.save, { combinedTicker: 'VOD:LSE' })]: () =>
          errorResponse(400, 'URL not defined. Must give the address of the announcement'),
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add Announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Announcement' });
    expect(within(dialog).queryByLabelText('PDF')).not.toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Headline'), { target: { value: 'Trading update' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Save Failed! URL not defined. Must give the address of the announcement',
    );
    fireEvent.change(within(dialog).getByLabelText('URL'), {
      target: { value: 'https://lse.example/vod/1' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1]?.body).toMatchObject({
      remotePath: 'https://lse.example/vod/1',
    });
  });

  it('shows the sync progress instead of Add Announcement while the initial poll runs', async () => {
    open(
      ['EditAnnouncements'],
      { announcements: [], initialPoll: runningPoll(), next: null },
      { completedInitialPoll: false },
    );
    expect(await screen.findByTestId('sync-progress')).toHaveTextContent(
      'Sync in Progress: 2019 of 2026, 340 announcements',
    );
    expect(screen.queryByRole('button', { name: 'Add Announcement' })).not.toBeInTheDocument();
  });

  it('shows Add Announcement once the list reports the run completed, without asking for the stock again', async () => {
    const { calls } = open(
      ['EditAnnouncements'],
      {
        announcements: [],
        initialPoll: { ...runningPoll(), status: 'completed', currentYear: 2026 },
        next: null,
      },
      { completedInitialPoll: false },
    );
    expect(await screen.findByRole('button', { name: 'Add Announcement' })).toBeInTheDocument();
    expect(screen.queryByTestId('sync-progress')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith(routes.stocks.clientGet.path))).toHaveLength(1);
  });

  it('links the Comments count only for ReplyToComment holders on the stock', async () => {
    const commented = announcement({ headline: 'Half Year Results', numComments: 2 });
    open(['EditAnnouncements', 'ReplyToComment'], {
      announcements: [commented],
      initialPoll: null,
      next: null,
    });
    expect(await screen.findByRole('link', { name: `2 comments on ${commented.headline}` })).toHaveAttribute(
      'href',
      `/AnnouncementComments/BHP:ASX/${commented.sendGuid}`,
    );
    cleanup();

    open(['EditAnnouncements'], { announcements: [commented], initialPoll: null, next: null });
    const [row] = within(await screen.findByTestId('announcement-rows')).getAllByRole('row');
    expect(within(row as HTMLElement).getAllByRole('cell')[3]).toHaveTextContent('2');
    expect(within(row as HTMLElement).queryByRole('link', { name: /comments on/ })).not.toBeInTheDocument();
  });

  it("says who was mailed is unknown when the list's header names the email-marketing service", async () => {
    const stock = clientStockDto('BHP', { roles: ['EditAnnouncements'] });
    open(
      ['EditAnnouncements'],
      undefined,
      {},
      {
        [routeKey(routes.announcements.list, { combinedTicker: stock.combinedTicker })]: () =>
          jsonResponse({ announcements: [SENT, NEW], initialPoll: null, next: null }, 200, {
            [STOCK_LIST_UNAVAILABLE_HEADER]: 'email-marketing',
          }),
      },
    );
    expect(await screen.findByRole('status')).toHaveTextContent(SENT_STATE_UNAVAILABLE);
    expect(within(await screen.findByTestId('announcement-rows')).getAllByRole('row')).toHaveLength(2);
  });

  it('shows the error when the list cannot be loaded', async () => {
    open(
      ['EditAnnouncements'],
      undefined,
      {},
      {
        [routeKey(routes.announcements.list, { combinedTicker: 'BHP:ASX' })]: () =>
          errorResponse(
            503,
            'The announcements service is not available right now (no answer within 5 s). Please try again shortly.',
          ),
      },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The announcements service is not available right now',
    );
  });
});
