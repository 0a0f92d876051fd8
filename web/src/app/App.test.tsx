import { render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '@/api/pageReload';
import { jsonResponse, requestOf, sessionUser } from '@/test/render';
import { App } from './App';
import { AppProvider } from './provider';
import { setupStore } from './store';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function renderApp() {
  const store = setupStore();
  render(
    <StrictMode>
      <AppProvider store={store} env="test">
        <App />
      </AppProvider>
    </StrictMode>,
  );
  return store;
}

describe('App start-up', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    window.history.replaceState(null, '', '/referers');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('restores the session before rendering the routes (once, even in StrictMode)', async () => {
    const answer = deferred<Response>();
    fetchMock.mockReturnValueOnce(answer.promise);
    const store = renderApp();

    expect(screen.getByTestId('app-loader')).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const request = requestOf(fetchMock);
    expect(request.method).toBe('GET');
    expect(new URL(request.url).pathname).toBe(routes.users.refreshToken.path);
    expect(request.credentials).toBe('include');

    answer.resolve(jsonResponse(sessionUser('admin', { Admin: true })));
    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(screen.getByText('Logged in as admin')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/referers');
    expect(store.getState().session.user?.username).toBe('admin');
    // The refresh ran once; the Referers screen's own data call may follow.
    const refreshCalls = fetchMock.mock.calls.filter(
      ([request]) =>
        request instanceof Request && new URL(request.url).pathname === routes.users.refreshToken.path,
    );
    expect(refreshCalls).toHaveLength(1);
  });

  it('treats a 401 from the refresh as signed out, without reloading', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 401 }, 401));
    renderApp();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('says on /login why a session ended (a staff session idle for 30 minutes), and nothing when none had', async () => {
    const idle = 'Your session ended after a time without activity; please sign in again';
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 401, errorMessage: idle }, 401));
    renderApp();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(idle);
    // The page the user was on is where signing in goes back to.
    expect(window.location.pathname).toBe('/login');
  });

  it('shows no reason when nobody was signed in', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 401, errorMessage: 'Not signed in' }, 401));
    renderApp();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('treats an unreachable server as signed out', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderApp();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});
