import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SessionUserDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLoading } from '@/lib/ui/uiSlice';
import { jsonResponse, renderRoute, requestOf, sessionUser, storeWith } from '@/test/render';
import { COMPACT_HEADER_QUERY } from './AppHeader';
import { mediaQueryList } from '../../test/matchMedia';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const users = {
  admin: sessionUser('admin', { Admin: true, EditUsers: true, InvoiceTotal: true }),
  reports: sessionUser('reports', { RunReports: true }),
  useradmin: sessionUser('useradmin', { EditUsers: true }),
  client: sessionUser('client', {}, { 'stock-1': ['ViewConfig'] }),
};

const ADMIN_ITEMS = ['Add New Stock', 'System Settings', 'Accounting Integration', 'Orders'];

function renderSignedIn(user: SessionUserDto, path = '/') {
  return renderRoute(path, { store: storeWith(user) });
}

function linkNames(container: HTMLElement): string[] {
  return within(container)
    .queryAllByRole('link')
    .map((link) => link.textContent ?? '');
}

describe('header menu by role', () => {
  it('shows admins every item and who is signed in', async () => {
    renderSignedIn(users.admin);
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('Logged in as admin')).toBeInTheDocument();
    expect(linkNames(within(banner).getByRole('navigation', { name: 'Main' }))).toEqual([
      ...ADMIN_ITEMS,
      'Users',
    ]);
    expect(within(banner).getByRole('link', { name: 'Add New Stock' })).toHaveAttribute('href', '/create');
    expect(within(banner).getByRole('link', { name: 'Accounting Integration' })).toHaveAttribute(
      'href',
      '/accounting-page',
    );
    expect(within(banner).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('shows report-runners no admin items and no Users', async () => {
    renderSignedIn(users.reports);
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('Logged in as reports')).toBeInTheDocument();
    expect(linkNames(within(banner).getByRole('navigation', { name: 'Main' }))).toEqual([]);
    expect(within(banner).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('shows EditUsers holders only Users', async () => {
    renderSignedIn(users.useradmin);
    const banner = await screen.findByRole('banner');
    expect(linkNames(within(banner).getByRole('navigation', { name: 'Main' }))).toEqual(['Users']);
  });

  it('shows clients only Logout', async () => {
    renderSignedIn(users.client);
    const banner = await screen.findByRole('banner');
    expect(linkNames(within(banner).getByRole('navigation', { name: 'Main' }))).toEqual([]);
    expect(within(banner).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('has no header when signed out, on /login, /report/* and /new-order', async () => {
    const signedOut = renderRoute('/no-such-page');
    await screen.findByText('Page not found!');
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    signedOut.unmount();

    for (const path of ['/login', '/report/abc', '/new-order', '/new-order/7']) {
      const { unmount } = renderSignedIn(users.admin, path);
      await waitFor(() => expect(screen.queryAllByRole('heading').length).toBeGreaterThan(0));
      expect(screen.queryByRole('banner')).not.toBeInTheDocument();
      unmount();
    }
  });
});

describe('logout', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('calls DELETE /api/login with the CSRF header, clears the session and goes to /login', async () => {
    document.cookie = 'XSRF-TOKEN=token-123; path=/';
    // The Referers screen loads its list; the logout is the DELETE.
    fetchMock.mockImplementation((request) =>
      Promise.resolve(
        (request as Request).method === 'DELETE' ? jsonResponse({ success: true }) : jsonResponse([]),
      ),
    );
    const { router, store } = renderSignedIn(users.admin, '/referers');
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().session.user).toBeNull();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    const request = fetchMock.mock.calls
      .map((_call, index) => requestOf(fetchMock, index))
      .find((r) => r.method === 'DELETE');
    if (!request) throw new Error('no DELETE /api/login');
    expect(new URL(request.url).pathname).toBe(routes.users.login.path);
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('token-123');
    // Signing in again starts at home, not at the page open before logging out.
    expect(router.state.location.state).toBeNull();
  });

  it('signs out locally even when the server call fails', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 500 }, 500));
    const { router, store } = renderSignedIn(users.client);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().session.user).toBeNull();
  });
});

describe('phone width', () => {
  beforeEach(() => {
    vi.mocked(window.matchMedia).mockImplementation((query: string) =>
      mediaQueryList(query, (q) => q === COMPACT_HEADER_QUERY),
    );
  });

  it('puts the menu behind a burger', async () => {
    const { router } = renderSignedIn(users.admin);
    const banner = await screen.findByRole('banner');
    expect(within(banner).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();

    fireEvent.click(within(banner).getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByText('Logged in as admin')).toBeInTheDocument();
    expect(linkNames(within(drawer).getByRole('navigation', { name: 'Main' }))).toEqual([
      ...ADMIN_ITEMS,
      'Users',
    ]);
    expect(within(drawer).getByRole('button', { name: 'Logout' })).toBeInTheDocument();

    fireEvent.click(within(drawer).getByRole('link', { name: 'Users' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument());
  });
});

describe('global spinner', () => {
  it('overlays the shell while the loading flag is set', async () => {
    const { store } = renderSignedIn(users.admin);
    await screen.findByRole('banner');
    expect(screen.queryByTestId('global-spinner')).not.toBeInTheDocument();
    store.dispatch(startLoading());
    expect(await screen.findByTestId('global-spinner')).toBeInTheDocument();
  });
});
