import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  COMMENT_LIMITS,
  COMMENT_TEXTS,
  respondedWarning,
  type CommentResponse,
  type CommentResponseSaved,
} from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, serveApi, type ApiCall, type Handler, routeKey } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { COMMENT_GUID, commentResponse, RESPONSE_PATH, SEND_GUID } from '../test/fixtures';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const moderator = sessionUser('moderator', {}, { 'stock-1': ['ReplyToComment'] });

const FLAGGED = commentResponse({
  request: {
    name: 'Sam Trader',
    email: 'sam@trader.example',
    comment: 'Is there a takeover coming?',
  },
  flags: [
    {
      rule: 'disclosure',
      category: 'disclosure',
      reason: 'Asks for undisclosed information',
      match: 'takeover',
    },
  ],
});
const RESPONDED = commentResponse({
  isPublic: true,
  response: { comment: 'The record date is 5 April.', date: '2025-03-23T00:00:00.000Z' },
});

const gets = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === RESPONSE_PATH);
const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === RESPONSE_PATH);

describe('Comment Response screen', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(comment: CommentResponse | Handler, post?: Handler) {
    const calls = serveApi(fetchMock, {
      [`GET ${RESPONSE_PATH}`]: typeof comment === 'function' ? comment : () => jsonResponse(comment),
      ...(post ? { [`POST ${RESPONSE_PATH}`]: post } : {}),
    });
    renderRoute(`/AnnouncementCommentResponse/${COMMENT_GUID}`, { store: storeWith(moderator) });
    return calls;
  }

  const responseBox = () => screen.findByRole('textbox', { name: 'Your response' });
  const submitButton = () => screen.getByRole('button', { name: /^(Submit|Submitting\.\.\.)$/ });

  it('shows the announcement, the dates in Sydney time, the commenter and the flags, with an empty form', async () => {
    open(FLAGGED);
    const textarea = await responseBox();
    expect(screen.getByRole('heading', { name: 'Quarterly Activities Report' })).toBeInTheDocument();
    const details = within(screen.getByTestId('comment-details'));
    expect(details.getByText('22 Mar 2025 8:50 AM')).toBeInTheDocument(); // released
    expect(details.getByText('22 Mar 2025 12:15 PM')).toBeInTheDocument(); // requested
    expect(details.getByText('Sam Trader')).toBeInTheDocument();
    expect(details.getByText('sam@trader.example')).toBeInTheDocument();
    expect(screen.getByTestId('comment-text')).toHaveTextContent('Is there a takeover coming?');

    const flags = screen.getByTestId('comment-flags');
    expect(flags).toHaveTextContent('Flagged for review');
    expect(flags).toHaveTextContent('Asks for undisclosed information');

    expect(screen.getByRole('link', { name: /Comments on this announcement/ })).toHaveAttribute(
      'href',
      `/AnnouncementComments/BHP:ASX/${SEND_GUID}`,
    );
    expect(textarea).toHaveAttribute('rows', '10');
    expect(textarea).toHaveAttribute('maxlength', String(COMMENT_LIMITS.response));
    expect(textarea).toHaveValue('');
    const toggle = screen.getByRole('switch', { name: 'Post publicly' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/toggling this to 'No'/);
    expect(screen.getByText('No')).toBeInTheDocument();
    expect(screen.queryByTestId('responded-warning')).not.toBeInTheDocument();
    expect(submitButton()).toHaveTextContent('Submit');
  });

  it('prefills an existing response and warns that it was responded to', async () => {
    open(RESPONDED);
    expect(await responseBox()).toHaveValue('The record date is 5 April.');
    expect(screen.getByRole('switch', { name: 'Post publicly' })).toBeChecked();
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(screen.getByTestId('responded-warning')).toHaveTextContent(
      respondedWarning('23 Mar 2025 11:00 AM'),
    );
    expect(screen.queryByTestId('comment-flags')).not.toBeInTheDocument();
  });

  it("submits: 'Submitting...', then 'Response submitted successfully' and the page reads the comment again", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = open(
      FLAGGED,
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    fireEvent.change(await responseBox(), { target: { value: 'No takeover is planned.' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Post publicly' }));
    fireEvent.click(submitButton());

    expect(await screen.findByRole('button', { name: COMMENT_TEXTS.submitting })).toBeDisabled();
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.body).toEqual({
      guid: COMMENT_GUID,
      comment: 'No takeover is planned.',
      isPublic: true,
    });

    const saved: CommentResponseSaved = {
      success: true,
      errorMessage: null,
      comment: {
        ...FLAGGED,
        isPublic: true,
        response: { comment: 'No takeover is planned.', date: '2025-03-24T00:00:00.000Z' },
      },
    };
    answer(jsonResponse(saved));
    expect(await screen.findByRole('status')).toHaveTextContent(COMMENT_TEXTS.submitted);
    expect(submitButton()).toHaveTextContent('Submit');
    expect(submitButton()).toBeEnabled();
    // The submitted response invalidated the comment: read again, the form keeps what was typed.
    await waitFor(() => expect(gets(calls)).toHaveLength(2));
    expect(screen.getByRole('textbox', { name: 'Your response' })).toHaveValue('No takeover is planned.');
  });

  it("shows the server's errorMessage under the Submit button on a 400", async () => {
    const calls = open(FLAGGED, () => errorResponse(400, COMMENT_TEXTS.flaggedNeedsResponse));
    await responseBox();
    fireEvent.click(screen.getByRole('switch', { name: 'Post publicly' }));
    fireEvent.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(COMMENT_TEXTS.flaggedNeedsResponse);
    const button = submitButton();
    expect(button.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(button).toHaveTextContent('Submit');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(posts(calls)[0]?.body).toEqual({ guid: COMMENT_GUID, comment: '', isPublic: true });
    // Editing the form clears the outcome of the last submit.
    fireEvent.change(screen.getByRole('textbox', { name: 'Your response' }), { target: { value: 'x' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refreshes the comment groups a submitted response changes (tag CommentGroups, shared by name)', async () => {
    let response: CommentResponse['response'] = null;
    const groups = () => ({
      combinedTicker: 'BHP:ASX',
      totalCommentGroups: 1,
      commentGroups: [
        {
          sendGuid: SEND_GUID,
          announcementHeadline: FLAGGED.announcementHeadline,
          announcementDate: FLAGGED.announcementDate,
          comments: [
            {
              announcementCommentEventGuid: COMMENT_GUID,
              date: FLAGGED.created,
              name: FLAGGED.request.name,
              comment: FLAGGED.request.comment,
              isPublic: false,
              flags: FLAGGED.flags,
              responses: response ? [response] : [],
            },
          ],
        },
      ],
    });
    const calls = serveApi(fetchMock, {
      [routeKey(routes.announcements.comments)]: () => jsonResponse(groups()),
      [`GET ${RESPONSE_PATH}`]: () => jsonResponse({ ...FLAGGED, response }),
      [`POST ${RESPONSE_PATH}`]: (call) => {
        const body = call.body as { comment: string };
        response = { comment: body.comment, date: '2025-03-24T00:00:00.000Z' };
        return jsonResponse({ success: true, errorMessage: null, comment: { ...FLAGGED, response } });
      },
    });
    renderRoute(`/AnnouncementComments/BHP:ASX/${SEND_GUID}`, { store: storeWith(moderator) });
    expect(await screen.findByText('No response yet')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('link', { name: /^Edit/ }));
    fireEvent.change(await responseBox(), { target: { value: 'No takeover is planned.' } });
    fireEvent.click(submitButton());
    expect(await screen.findByRole('status')).toHaveTextContent(COMMENT_TEXTS.submitted);

    fireEvent.click(screen.getByRole('link', { name: /Comments on this announcement/ }));
    expect(await screen.findByText('No takeover is planned.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === routes.announcements.comments.path)).toHaveLength(2);
  });

  it('shows a comment with markup as its literal text, never as HTML', async () => {
    const script = '<script>alert(1)</script>';
    open(commentResponse({ request: { name: '<b>Eve</b>', email: 'eve@example.com', comment: script } }));
    await responseBox();
    expect(screen.getByTestId('comment-text')).toHaveTextContent(script);
    expect(screen.getByText(script)).toBeVisible();
    expect(screen.getByText('<b>Eve</b>')).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
    expect(document.querySelector('b')).toBeNull();
  });

  it("says 'Comment not found' for an unknown comment", async () => {
    open(() => errorResponse(404, COMMENT_TEXTS.notFound));
    expect(await screen.findByRole('alert')).toHaveTextContent(COMMENT_TEXTS.notFound);
    expect(screen.queryByRole('textbox', { name: 'Your response' })).not.toBeInTheDocument();
  });
});
