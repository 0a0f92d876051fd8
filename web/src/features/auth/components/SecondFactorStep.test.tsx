import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startAuthentication } from '@simplewebauthn/browser';
import {
  SECOND_FACTOR_EXPIRED,
  SECOND_FACTOR_NEEDED,
  SECOND_FACTOR_REFUSED,
  type SecondFactorMethod,
} from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { PASSKEY_NOT_USED } from '@/lib/passkeys';
import { errorResponse, routeKey, serveApi, type Handler } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });
const OPTIONS = { challenge: 'c2lnbi1pbg', rpId: 'localhost', allowCredentials: [] };
const ASSERTION = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: {},
  clientExtensionResults: {},
};

/** GET /api/login's 401 for a right password of a user with a second factor. */
const secondFactorNeeded = (methods: SecondFactorMethod[]) =>
  jsonResponse(
    {
      statusCode: 401,
      error: 'Unauthorized',
      message: SECOND_FACTOR_NEEDED,
      errorMessage: SECOND_FACTOR_NEEDED,
      secondFactor: { methods },
    },
    401,
  );

describe('Login: the second factor (issue 34)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  /** Opens /referers signed out (so /login remembers it), and signs in with the password. */
  async function signInWithPassword(methods: SecondFactorMethod[], handlers: Record<string, Handler> = {}) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.login)]: () => secondFactorNeeded(methods),
      [routeKey(routes.stocks.referers)]: () => jsonResponse([]),
      ...handlers,
    });
    const rendered = renderRoute('/referers');
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Admin!2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    const step = await screen.findByRole('region', { name: "Confirm it's you" });
    return { ...rendered, calls, step };
  }

  it('signs in with an authenticator code after a refused one, then opens the page asked for', async () => {
    let answer = () => errorResponse(401, SECOND_FACTOR_REFUSED);
    const { calls, step, router, store } = await signInWithPassword(['passkey', 'totp', 'recovery'], {
      [routeKey(routes.users.signInCode)]: () => answer(),
    });
    expect(within(step).getByRole('button', { name: 'Use a passkey' })).toBeEnabled();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    const code = within(step).getByLabelText('Authenticator or recovery code');
    await waitFor(() => expect(code).toHaveFocus());

    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await within(step).findByRole('alert')).toHaveTextContent(SECOND_FACTOR_REFUSED);
    expect(store.getState().session.user).toBeNull();

    answer = () => jsonResponse(admin);
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/referers');
    expect(store.getState().session.user).toEqual(admin);
    expect(calls.filter((c) => c.path === routes.users.signInCode.path).map((c) => c.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('takes a recovery code in the same field', async () => {
    const { calls, step } = await signInWithPassword(['totp', 'recovery'], {
      [routeKey(routes.users.signInCode)]: () => jsonResponse(admin),
    });
    expect(within(step).queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
    fireEvent.change(within(step).getByLabelText('Authenticator or recovery code'), {
      target: { value: 'ABCDE-12345' },
    });
    fireEvent.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === routes.users.signInCode.path)?.body).toEqual({ code: 'ABCDE-12345' });
  });

  it('signs in with a passkey: the options, the browser prompt, then the assertion', async () => {
    vi.mocked(startAuthentication).mockResolvedValueOnce(ASSERTION as never);
    const { calls, step, store } = await signInWithPassword(['passkey'], {
      [routeKey(routes.users.signInPasskeyOptions)]: () => jsonResponse({ options: OPTIONS }),
      [routeKey(routes.users.signInPasskey)]: () => jsonResponse(admin),
    });
    expect(within(step).queryByLabelText('Authenticator or recovery code')).not.toBeInTheDocument();
    fireEvent.click(within(step).getByRole('button', { name: 'Use a passkey' }));

    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(store.getState().session.user).toEqual(admin);
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.path)).toEqual([
      routes.users.signInPasskeyOptions.path,
      routes.users.signInPasskey.path,
    ]);
    expect(posts[1]?.body).toEqual({ response: ASSERTION });
  });

  it('says so when the passkey prompt is closed, and shows a refused passkey', async () => {
    vi.mocked(startAuthentication)
      .mockRejectedValueOnce(
        new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
      )
      .mockResolvedValueOnce(ASSERTION as never);
    const { calls, step, store } = await signInWithPassword(['passkey', 'totp'], {
      [routeKey(routes.users.signInPasskeyOptions)]: () => jsonResponse({ options: OPTIONS }),
      [routeKey(routes.users.signInPasskey)]: () => errorResponse(401, SECOND_FACTOR_REFUSED),
    });
    fireEvent.click(within(step).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(step).findByRole('alert')).toHaveTextContent(PASSKEY_NOT_USED);
    expect(calls.some((c) => c.path === routes.users.signInPasskey.path)).toBe(false);

    fireEvent.click(within(step).getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(within(step).getByRole('alert')).toHaveTextContent(SECOND_FACTOR_REFUSED));
    expect(store.getState().session.user).toBeNull();
  });

  it('goes back to the password when the sign-in has expired, saying why', async () => {
    const { step } = await signInWithPassword(['totp'], {
      [routeKey(routes.users.signInCode)]: () => errorResponse(401, SECOND_FACTOR_EXPIRED),
    });
    fireEvent.change(within(step).getByLabelText('Authenticator or recovery code'), {
      target: { value: '123456' },
    });
    fireEvent.click(within(step).getByRole('button', { name: 'Verify' }));
    const form = await screen.findByRole('form', { name: 'Login' });
    expect(within(form).getByRole('alert')).toHaveTextContent(SECOND_FACTOR_EXPIRED);
    expect(within(form).getByLabelText('Username')).toHaveValue('admin');
    expect(within(form).getByLabelText('Password')).toHaveValue('');
  });

  it("'Use another account' returns to an empty password form", async () => {
    const { step } = await signInWithPassword(['passkey', 'totp', 'recovery']);
    fireEvent.click(within(step).getByRole('button', { name: 'Use another account' }));
    const form = await screen.findByRole('form', { name: 'Login' });
    expect(within(form).getByLabelText('Username')).toHaveValue('');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: "Confirm it's you" })).not.toBeInTheDocument();
  });
});
