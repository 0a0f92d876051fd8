import { screen, within } from '@testing-library/react';
import { COMMENT_TEXTS } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveApi, routeKey } from '@/test/fakeApi';
import { clientStockDto } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { commentGroup, commentItem, commentsResult } from '../test/fixtures';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const GROUP = commentGroup({
  announcementHeadline: 'Investor Presentation',
  comments: [
    commentItem({
      name: 'Jane Investor',
      responses: [{ comment: 'Thanks', date: '2025-03-23T00:00:00.000Z' }],
    }),
  ],
});

describe('client Comments tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(roles: string[], tab = 'comments') {
    const stock = clientStockDto('BHP', { roles });
    const user = sessionUser('client', {}, { [stock.id]: roles });
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.clientGet)]: () => jsonResponse(stock),
      [routeKey(routes.announcements.comments)]: () => jsonResponse(commentsResult([GROUP])),
    });
    renderRoute(`/client-stocks/${stock.combinedTicker}?tab=${tab}`, { store: storeWith(user) });
    return calls;
  }

  it("shows the stock's comment groups to ReplyToComment holders, without the page's Save", async () => {
    const calls = open(['ReplyToComment']);
    const [group] = await screen.findAllByTestId('comment-group');
    expect(screen.getByRole('tab', { name: 'Comments', selected: true })).toBeInTheDocument();
    expect(screen.getByText(COMMENT_TEXTS.widgetNote)).toBeInTheDocument();
    expect(screen.getByTestId('comment-groups-total')).toHaveTextContent('1 comment group');
    expect(
      within(group as HTMLElement).getByRole('heading', { name: 'Investor Presentation' }),
    ).toBeInTheDocument();
    expect(group).toHaveTextContent('Thanks');
    expect(within(group as HTMLElement).getByRole('link', { name: /^Edit/ })).toHaveAttribute(
      'href',
      `/AnnouncementCommentResponse/${GROUP.comments[0]?.announcementCommentEventGuid}`,
    );
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    const asked = calls.find((c) => c.path === routes.announcements.comments.path);
    expect(asked?.params.get('combinedTicker')).toBe('BHP:ASX');
  });

  it('has no Comments tab without ReplyToComment on the stock, and asks for no comments', async () => {
    const calls = open(['ViewConfig', 'EditAnnouncements']);
    expect(await screen.findByRole('tab', { name: 'Config', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Comments' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('comment-group')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === routes.announcements.comments.path)).toBe(false);
  });
});
