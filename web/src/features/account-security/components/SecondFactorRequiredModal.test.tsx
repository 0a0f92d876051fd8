import { fireEvent, screen, within } from '@testing-library/react';
import { startRegistration } from '@simplewebauthn/browser';
import { SECOND_FACTOR_REQUIRED } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { routeKey, serveApi } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { RECOVERY_CODES_NOTE } from './RecoveryCodes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));

const admin = { ...sessionUser('admin', { Admin: true }), mustAddSecondFactor: true };
const CODES = ['AAAAA-11111', 'BBBBB-22222'];

describe('A second factor the roles need (RequireAuth)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('asks for one before the page, cannot be dismissed, and opens the page once the codes are saved', async () => {
    vi.mocked(startRegistration).mockResolvedValueOnce({ id: 'cred-1' } as never);
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.passkeyOptions)]: () => jsonResponse({ options: { challenge: 'eA' } }),
      [routeKey(routes.users.addPasskey)]: () => jsonResponse({ success: true, recoveryCodes: CODES }),
      [routeKey(routes.stocks.referers)]: () => jsonResponse([]),
    });
    const { router, store } = renderRoute('/referers', { store: storeWith(admin) });
    const dialog = await screen.findByRole('dialog', { name: 'Set up a second factor' });
    expect(within(dialog).getByText(SECOND_FACTOR_REQUIRED)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Set up a second factor' })).toBeInTheDocument();
    // Nothing of the page is asked for until then (the server would refuse it with SECOND_FACTOR_REQUIRED).
    expect(screen.queryByRole('heading', { name: 'Referers' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === routes.stocks.referers.path)).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add passkey' }));
    expect(await within(dialog).findByText(RECOVERY_CODES_NOTE)).toBeInTheDocument();
    expect(within(within(dialog).getByTestId('recovery-codes')).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('heading', { name: 'Referers' })).not.toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/referers');
    expect(store.getState().session.user?.mustAddSecondFactor).toBe(false);
    expect(calls.find((c) => c.path === routes.users.addPasskey.path)?.body).toEqual({
      name: 'This device',
      response: { id: 'cred-1' },
    });
  });

  it('asks for the new password first when both are due', async () => {
    serveApi(fetchMock, {});
    renderRoute('/referers', { store: storeWith({ ...admin, mustChangePassword: true }) });
    expect(await screen.findByRole('dialog', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Set up a second factor' })).not.toBeInTheDocument();
  });
});
