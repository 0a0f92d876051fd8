import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true, EditUsers: true, InvoiceTotal: true });
const reports = sessionUser('reports', { RunReports: true });
const useradmin = sessionUser('useradmin', { EditUsers: true });
const client = sessionUser('client', {}, { 's-1': ['ViewConfig'] });

describe('routes', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('sends signed-out visitors to /login and back to the page (path + search) after signing in', async () => {
    const { router, store } = renderRoute('/referers?sort=count');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByRole('heading', { name: 'Referers' })).not.toBeInTheDocument();

    fetchMock.mockResolvedValueOnce(jsonResponse(admin));
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Admin!2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/referers');
    expect(router.state.location.search).toBe('?sort=count');
    expect(store.getState().session.user?.username).toBe('admin');
    expect(screen.getByText('Logged in as admin')).toBeInTheDocument();
  });

  it('goes home after signing in from /login directly', async () => {
    const { router } = renderRoute('/login');
    fetchMock.mockResolvedValueOnce(jsonResponse(client));
    fireEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Client Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/', '/stocks/ABC:ASX', '/create', '/users', '/users/new', '/AnnouncementComments/ABC:ASX'])(
    'protects %s',
    async (path) => {
      const { router } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    },
  );

  it.each([
    ['/report/abc-123', 'Report'],
    ['/new-order', 'Order Form'],
    ['/new-order/42', 'Order Form'],
    ['/login', 'IR Portal'],
  ])('lets anyone open the public page %s', async (path, title) => {
    const { router } = renderRoute(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
  });

  it("routes /report/{guid} to the public report page, which reads that guid's report", async () => {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.reports.report, { guid: 'r-1' })]: () => errorResponse(404, 'Report not found'),
    });
    renderRoute('/report/r-1', { store: storeWith(admin) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Report not found');
    expect(screen.getByRole('heading', { name: 'Report' })).toBeInTheDocument();
    expect(calls.map((call) => `${call.method} ${call.path}`)).toContain('GET /api/report/r-1');
  });

  it('shows "Page not found!" with a link home for unknown paths', async () => {
    const { router } = renderRoute('/no-such-page', { store: storeWith(admin) });
    expect(await screen.findByText('Page not found!')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(await screen.findByRole('heading', { name: 'Staff Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    [admin, 'Staff Dashboard'],
    [reports, 'Staff Dashboard'],
    [useradmin, 'Client Dashboard'],
    [client, 'Client Dashboard'],
  ])('shows $username the right dashboard at /', async (user, title) => {
    renderRoute('/', { store: storeWith(user) });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
  });

  it.each([
    [admin, true],
    [useradmin, true],
    [reports, false],
    [client, false],
  ])('allows /users to $username: %s', async (user, allowed) => {
    renderRoute('/users', { store: storeWith(user) });
    if (allowed) {
      expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    } else {
      expect(await screen.findByText('You are not allowed to view this page.')).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Users' })).not.toBeInTheDocument();
    }
  });

  it.each([
    ['/create', 'Add New Stock', {}],
    ['/system-settings', 'System Settings', {}],
    ['/accounting-page', 'Accounting Integration', {}],
    ['/orders', 'Service Orders', {}],
    ['/users/new', 'Add New User', {}],
    ['/referers', 'Referers', {}],
    ['/AnnouncementComments/ABC:ASX', 'Announcement Comments', { combinedTicker: 'ABC:ASX' }],
    [
      '/AnnouncementComments/ABC:ASX/g-1',
      'Announcement Comments',
      { combinedTicker: 'ABC:ASX', sendGuid: 'g-1' },
    ],
    ['/AnnouncementCommentResponse/g-2', 'Comment Response', { guid: 'g-2' }],
    ['/client-stocks/ABC:ASX', 'Client Stock', { combinedTicker: 'ABC:ASX' }],
    ['/new-order/9', 'Order Form', {}],
  ])('routes %s to the %s screen', async (path, title, params: Record<string, string>) => {
    renderRoute(path, { store: storeWith(admin) });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    for (const [name, value] of Object.entries(params)) {
      expect(screen.getByTestId(`route-param-${name}`)).toHaveTextContent(value);
    }
  });
});
