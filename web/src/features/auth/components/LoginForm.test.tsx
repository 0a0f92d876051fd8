import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, requestOf, sessionUser } from '@/test/render';
import { LoginForm } from './LoginForm';
import { routes } from '@/api/routes';

const admin = sessionUser('admin', { Admin: true });

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function fillAndSubmit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginForm', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('signs in with basic auth on GET /api/login, disables the form while busy, then sets the user', async () => {
    const answer = deferred<Response>();
    fetchMock.mockReturnValueOnce(answer.promise);
    const onSuccess = vi.fn();
    const { store } = renderWithProviders(<LoginForm onSuccess={onSuccess} />);

    fillAndSubmit('admin', 'Admin!2026');

    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled());
    expect(screen.getByLabelText('Username')).toBeDisabled();
    expect(screen.getByLabelText('Password')).toBeDisabled();
    const request = requestOf(fetchMock);
    expect(request.method).toBe('GET');
    expect(new URL(request.url).pathname).toBe(routes.users.login.path);
    expect(request.headers.get('Authorization')).toBe(`Basic ${btoa('admin:Admin!2026')}`);
    expect(request.credentials).toBe('include');

    answer.resolve(jsonResponse(admin));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(store.getState().session.user).toEqual(admin);
  });

  it.each([
    ['a 401', () => jsonResponse({ statusCode: 401, errorMessage: 'Unauthorized' }, 401)],
    ['a 500', () => jsonResponse({ statusCode: 500 }, 500)],
    ['a non-JSON answer', () => new Response('<html>', { status: 502 })],
  ])('shows the failure and re-enables the form on %s', async (_name, response) => {
    fetchMock.mockResolvedValueOnce(response());
    const onSuccess = vi.fn();
    const { store } = renderWithProviders(<LoginForm onSuccess={onSuccess} />);

    fillAndSubmit('admin', 'wrong');

    expect(await screen.findByText('Invalid username/password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(screen.getByLabelText('Username')).toBeEnabled();
    expect(screen.getByLabelText('Password')).toBeEnabled();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(store.getState().session.user).toBeNull();
  });

  it('shows the failure when the network is down', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    fillAndSubmit('admin', 'x');
    expect(await screen.findByText('Invalid username/password')).toBeInTheDocument();
  });

  it('has no client-side checks: empty fields are sent to the server', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 401 }, 401));
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid username/password')).toBeInTheDocument();
    expect(requestOf(fetchMock).headers.get('Authorization')).toBe(`Basic ${btoa(':')}`);
  });

  it('clears the failure message on the next attempt', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 401 }, 401));
    const answer = deferred<Response>();
    fetchMock.mockReturnValueOnce(answer.promise);
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    fillAndSubmit('admin', 'wrong');
    await screen.findByText('Invalid username/password');
    fillAndSubmit('admin', 'Admin!2026');
    await waitFor(() => expect(screen.queryByText('Invalid username/password')).not.toBeInTheDocument());
    answer.resolve(jsonResponse(admin));
  });
});
