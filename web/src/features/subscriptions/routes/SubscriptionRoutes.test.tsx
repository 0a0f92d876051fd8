import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute, requestOf, storeWith } from '@/test/render';
import { ConfirmSubscriptionRoute } from './ConfirmSubscriptionRoute';
import { PreferencesRoute } from './PreferencesRoute';
import { UnsubscribeRoute } from './UnsubscribeRoute';
import { routes } from '@/api/routes';
import { routePath } from '@/test/fakeApi';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const routeTable = [
  { path: '/subscription/confirm/:token', element: <ConfirmSubscriptionRoute /> },
  { path: '/subscription/unsubscribe/:token', element: <UnsubscribeRoute /> },
  { path: '/subscription/preferences/:token', element: <PreferencesRoute /> },
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

  describe('the preference page', () => {
    const company = { success: true, companyName: who.companyName, combinedTicker: who.combinedTicker };
    const state = { ...company, status: 'confirmed', message: '', preference: 'all', pausedUntil: null };

    it('shows the choice, saves price-sensitive only with a pause of four weeks, and says so; never the address', async () => {
      fetchMock.mockResolvedValueOnce(jsonResponse(state)).mockResolvedValueOnce(
        jsonResponse({
          ...state,
          preference: 'price-sensitive',
          pausedUntil: '2025-04-18T00:00:00.000Z',
          message: 'Your preferences are saved.',
        }),
      );
      renderRoute('/subscription/preferences/tok7', { store: storeWith(null), routeTable });
      expect(
        await screen.findByText('The announcements of BHP Group by email: choose what you receive.'),
      ).toBeVisible();
      expect(requestOf(fetchMock).method).toBe('GET');
      expect(new URL(requestOf(fetchMock).url).pathname).toBe(
        routePath(routes.emailMarketing.preferences, { token: 'tok7' }),
      );
      expect(screen.getByRole('radio', { name: 'Every announcement, as it is released' })).toBeChecked();
      fireEvent.click(screen.getByRole('radio', { name: 'Price-sensitive announcements only' }));
      fireEvent.click(screen.getByRole('textbox', { name: 'Pause' }));
      fireEvent.click(await screen.findByRole('option', { name: 'Pause for 4 weeks' }));
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Your preferences are saved.');
      const post = requestOf(fetchMock, 1);
      expect(post.method).toBe('POST');
      expect(await post.json()).toEqual({ preference: 'price-sensitive', pauseWeeks: 4 });
      expect(screen.getByTestId('paused-until')).toHaveTextContent('Paused: no mail until 18 Apr 2025.');
      expect(screen.getByRole('radio', { name: 'Price-sensitive announcements only' })).toBeChecked();
      expect(screen.getByRole('link', { name: 'Unsubscribe instead' })).toHaveAttribute(
        'href',
        '/subscription/unsubscribe/tok7',
      );
      expect(screen.queryByText(/@/)).not.toBeInTheDocument();
    });

    it('an unsubscribed address is told to subscribe again, with nothing to save', async () => {
      fetchMock.mockResolvedValueOnce(jsonResponse({ ...state, status: 'unsubscribed' }));
      renderRoute('/subscription/preferences/gone', { store: storeWith(null), routeTable });
      expect(await screen.findByRole('status')).toHaveTextContent(
        "subscribe again on the company's website to choose what you receive",
      );
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    });
  });
});
