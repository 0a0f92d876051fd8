import { screen, within } from '@testing-library/react';
import { COMMENT_TEXTS, type CommentsResult } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { errorResponse, serveApi, type Handler } from '@/test/fakeApi';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { commentGroup, commentItem, commentsResult } from '../test/fixtures';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const COMMENTS_PATH = routes.announcements.comments.path;
const admin = sessionUser('admin', { Admin: true });

const ANSWERED = commentItem({
  name: 'Jane Investor',
  comment: 'When is the next dividend?',
  isPublic: true,
  responses: [
    { comment: 'The record date is 5 April.', date: '2025-03-23T00:00:00.000Z' },
    { comment: 'A later edit', date: '2025-03-24T00:00:00.000Z' },
  ],
});
const FLAGGED = commentItem({
  name: 'Sam Trader',
  date: '2025-03-22T03:00:00.000Z',
  comment: 'Is there a takeover coming? Call me on 0400 000 000',
  flags: [
    {
      rule: 'disclosure',
      category: 'disclosure',
      reason: 'Asks for undisclosed information',
      match: 'takeover',
    },
    { rule: 'phone', category: 'contact-details', reason: 'Contains a phone number', match: '0400 000 000' },
  ],
});
const QUARTERLY = commentGroup({
  announcementHeadline: 'Quarterly Activities Report',
  announcementDate: '2025-03-21T21:50:00.000Z',
  comments: [ANSWERED, FLAGGED],
});
const ANNUAL = commentGroup({
  announcementHeadline: 'Annual Report',
  announcementDate: '2025-02-20T22:00:00.000Z',
  comments: [commentItem({ name: 'Alex Holder', comment: 'Great result' })],
});

describe('Announcement Comments screen', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(path: string, answer: CommentsResult | Handler) {
    const calls = serveApi(fetchMock, {
      [`GET ${COMMENTS_PATH}`]: typeof answer === 'function' ? answer : () => jsonResponse(answer),
    });
    renderRoute(path, { store: storeWith(admin) });
    return calls;
  }

  const groups = async () => screen.findAllByTestId('comment-group');

  it("lists the ticker's comment groups with the note, the total, Edit links, first responses and flags", async () => {
    const calls = open('/AnnouncementComments/BHP:ASX', commentsResult([QUARTERLY, ANNUAL], 3));
    const [quarterly, annual] = await groups();
    expect(screen.getByText(COMMENT_TEXTS.widgetNote)).toBeInTheDocument();
    expect(screen.getByTestId('comment-groups-total')).toHaveTextContent('3 comment groups');
    expect(calls[0]?.params.get('combinedTicker')).toBe('BHP:ASX');
    expect(calls[0]?.params.has('announcementGuid')).toBe(false);

    const section = within(quarterly as HTMLElement);
    expect(section.getByRole('heading', { name: 'Quarterly Activities Report' })).toBeInTheDocument();
    // The headline opens this announcement's comments alone.
    expect(section.getByRole('link', { name: 'Quarterly Activities Report' })).toHaveAttribute(
      'href',
      `/AnnouncementComments/BHP:ASX/${QUARTERLY.sendGuid}`,
    );
    expect(section.getByText('Released 22 Mar 2025 8:50 AM')).toBeInTheDocument();
    expect(section.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Edit',
      'Date',
      'Name',
      'Comment',
      'Response',
    ]);
    const [, answered, flagged] = section.getAllByRole('row');
    const answeredRow = within(answered as HTMLElement);
    expect(answeredRow.getByRole('link', { name: /^Edit/ })).toHaveAttribute(
      'href',
      `/AnnouncementCommentResponse/${ANSWERED.announcementCommentEventGuid}`,
    );
    expect(answered).toHaveTextContent('22 Mar 2025 12:15 PM');
    expect(answered).toHaveTextContent('Jane Investor');
    expect(answered).toHaveTextContent('When is the next dividend?');
    // The first response only.
    expect(answered).toHaveTextContent('The record date is 5 April.');
    expect(answered).not.toHaveTextContent('A later edit');
    expect(answeredRow.getByText('Public')).toBeInTheDocument();
    expect(answeredRow.queryByText('Flagged')).not.toBeInTheDocument();

    const flaggedRow = within(flagged as HTMLElement);
    expect(flaggedRow.getByText('Flagged')).toBeInTheDocument();
    expect(flaggedRow.getByText('Not public')).toBeInTheDocument();
    expect(
      within(flaggedRow.getByTestId('flag-reasons'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Asks for undisclosed information', 'Contains a phone number']);
    expect(flaggedRow.getByText('No response yet')).toBeInTheDocument();
    expect(flaggedRow.getByRole('link', { name: /^Edit/ })).toHaveAttribute(
      'href',
      `/AnnouncementCommentResponse/${FLAGGED.announcementCommentEventGuid}`,
    );

    expect(within(annual as HTMLElement).getByRole('heading', { name: 'Annual Report' })).toBeInTheDocument();
    expect(annual).toHaveTextContent('Alex Holder');
  });

  it("narrows to one announcement's comments with a link back to all of the ticker's", async () => {
    const calls = open(`/AnnouncementComments/BHP:ASX/${QUARTERLY.sendGuid}`, commentsResult([QUARTERLY], 3));
    const found = await groups();
    expect(found).toHaveLength(1);
    expect(calls[0]?.params.get('combinedTicker')).toBe('BHP:ASX');
    expect(calls[0]?.params.get('announcementGuid')).toBe(QUARTERLY.sendGuid);
    // The total is still the ticker's.
    expect(screen.getByTestId('comment-groups-total')).toHaveTextContent('3 comment groups');
    expect(screen.getByRole('link', { name: 'All comments for BHP:ASX' })).toHaveAttribute(
      'href',
      '/AnnouncementComments/BHP:ASX',
    );
    // Already this announcement's screen: the headline is no link.
    const heading = within(found[0] as HTMLElement).getByRole('heading', {
      name: QUARTERLY.announcementHeadline,
    });
    expect(within(heading).queryByRole('link')).not.toBeInTheDocument();
  });

  it('says so when the ticker has no comments', async () => {
    open('/AnnouncementComments/BHP:ASX', commentsResult([]));
    expect(await screen.findByText('No comments for BHP:ASX yet.')).toBeInTheDocument();
    expect(screen.getByTestId('comment-groups-total')).toHaveTextContent('0 comment groups');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows the gateway's errorMessage when the comments cannot be read", async () => {
    open('/AnnouncementComments/BHP:ASX', () =>
      errorResponse(403, 'You may not read the comments of BHP:ASX'),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('You may not read the comments of BHP:ASX');
  });

  it('renders a comment with markup as its literal text', async () => {
    const script = '<script>alert(1)</script>';
    open(
      '/AnnouncementComments/BHP:ASX',
      commentsResult([commentGroup({ comments: [commentItem({ comment: script })] })]),
    );
    expect(await screen.findByText(script)).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
  });

  it('stacks each comment as a card on phones', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query) =>
      mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
    );
    open('/AnnouncementComments/BHP:ASX', commentsResult([QUARTERLY]));
    const list = await screen.findByRole('list', { name: `Comments on ${QUARTERLY.announcementHeadline}` });
    const cards = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(cards).toHaveLength(2);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(cards[1]).toHaveTextContent('Flagged');
    expect(cards[1]).toHaveTextContent('Contains a phone number');
    expect(within(cards[0] as HTMLElement).getByRole('link', { name: /^Edit/ })).toBeInTheDocument();
  });
});
