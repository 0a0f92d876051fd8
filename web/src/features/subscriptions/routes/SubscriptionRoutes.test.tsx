import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute, requestOf, storeWith } from '@/test/render';
import { ConfirmSubscriptionRoute } from './ConfirmSubscriptionRoute';
import { UnsubscribeRoute } from './UnsubscribeRoute';
import { routes } from '@/api/routes';
import { routePath } from '@/test/fakeApi';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const routeTable = [
  { path: '/subscription/confirm/:token', element: <ConfirmSubscriptionRoute /> },
  { path: '/subscription/unsubscribe/:token', element: <UnsubscribeRoute /> },
];
const who = {
  success: true,
  email: 'investor@example.com',
  companyName: 'BHP Group',
  combinedTicker: 'BHP:ASX',
};

describe('subscription pages (no sign-in)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('confirms once on opening and says so', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ ...who, status: 'confirmed', message: 'Your subscription is confirmed.' }),
    );
    renderRoute('/subscription/confirm/tok123', { store: storeWith(null), routeTable });
    expect(await screen.findByRole('status')).toHaveTextContent('Your subscription is confirmed.');
    expect(screen.getByRole('status')).toHaveTextContent(
      'investor@example.com will receive the announcements of BHP Group',
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = requestOf(fetchMock);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe(routePath(routes.emailMarketing.confirm, { token: 'tok123' }));
  });

  it('shows why a used link does not confirm', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          statusCode: 404,
          errorMessage: 'This link is not valid (it may have been used already or expired).',
        },
        404,
      ),
    );
    renderRoute('/subscription/confirm/old', { store: storeWith(null), routeTable });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid');
  });

  it('asks before it unsubscribes, then unsubscribes with one click; never shows the address', async () => {
    const company = { success: true, companyName: who.companyName, combinedTicker: who.combinedTicker };
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ ...company, status: 'confirmed', message: '' }))
      .mockResolvedValueOnce(
        jsonResponse({
          ...company,
          status: 'unsubscribed',
          message: 'You are unsubscribed and will receive no more announcements.',
        }),
      );
    renderRoute('/subscription/unsubscribe/tok9', { store: storeWith(null), routeTable });
    expect(
      await screen.findByText('Stop sending the announcements of BHP Group to this address?'),
    ).toBeVisible();
    expect(requestOf(fetchMock).method).toBe('GET');
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You are unsubscribed and will receive no more announcements.',
    );
    expect(screen.queryByText(/@/)).not.toBeInTheDocument();
    const post = requestOf(fetchMock, 1);
    expect(post.method).toBe('POST');
    expect(new URL(post.url).pathname).toBe(routePath(routes.emailMarketing.subscription, { token: 'tok9' }));
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
  });
});
