import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startRegistration } from '@simplewebauthn/browser';
import { LAST_REQUIRED_FACTOR, type AccountSecurityDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi, type Handler } from '@/test/fakeApi';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { RECOVERY_CODES_NOTE } from './RecoveryCodes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));

const LAPTOP = {
  id: '7d8a2c4e-1f3b-4a5c-9d6e-0b1a2c3d4e5f',
  name: 'Laptop',
  createdAt: '2026-11-02T01:00:00.000Z',
  lastUsedAt: null,
};
const CODES = ['AAAAA-11111', 'BBBBB-22222', 'CCCCC-33333'];
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/IR%20Portal:reports?secret=${SECRET}&issuer=IR%20Portal`;

describe('Account security (header menu)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  /** Serves the user's second factors as `security` holds them (a test changes it as the server would). */
  function serve(security: AccountSecurityDto, handlers: Record<string, Handler> = {}) {
    return serveApi(fetchMock, {
      [routeKey(routes.users.accountSecurity)]: () => jsonResponse(security),
      ...handlers,
    });
  }

  async function open() {
    renderRoute('/', { store: storeWith(sessionUser('reports', { RunReports: true })) });
    const banner = await screen.findByRole('banner');
    fireEvent.click(within(banner).getByRole('button', { name: 'Account security' }));
    return screen.findByRole('dialog', { name: 'Account security' });
  }

  it("lists the passkeys, and shows the server's refusal to remove the last one the roles need", async () => {
    const calls = serve(
      { passkeys: [LAPTOP], totp: false, recoveryCodesLeft: 9, required: true },
      {
        [routeKey(routes.users.removePasskey, { id: LAPTOP.id })]: () =>
          errorResponse(409, LAST_REQUIRED_FACTOR),
      },
    );
    const dialog = await open();
    const passkeys = await within(dialog).findByRole('list', { name: 'Passkeys' });
    expect(within(passkeys).getByText('Laptop')).toBeInTheDocument();
    expect(within(passkeys).getByText(/last used never/)).toBeInTheDocument();
    expect(within(dialog).getByText('9 recovery codes left')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Remove passkey Laptop' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(LAST_REQUIRED_FACTOR);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/api/account/passkeys/${LAPTOP.id}`,
    ]);
    expect(within(passkeys).getByText('Laptop')).toBeInTheDocument();
  });

  it('sets up an authenticator app: the secret, then the recovery codes once after the code confirms it', async () => {
    let security: AccountSecurityDto = { passkeys: [], totp: false, recoveryCodesLeft: 0, required: false };
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.accountSecurity)]: () => jsonResponse(security),
      [routeKey(routes.users.beginTotp)]: () => jsonResponse({ secret: SECRET, uri: URI }),
      [routeKey(routes.users.confirmTotp)]: () => {
        security = { ...security, totp: true, recoveryCodesLeft: CODES.length };
        return jsonResponse({ success: true, recoveryCodes: CODES });
      },
    });
    const dialog = await open();
    expect(await within(dialog).findByText('No passkeys yet.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set up an authenticator app' }));

    expect(await within(dialog).findByTestId('totp-secret')).toHaveTextContent(SECRET);
    expect(
      within(dialog).getByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Code from the app'), { target: { value: '123 456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const codes = await within(dialog).findByTestId('recovery-codes');
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(within(dialog).getByText(RECOVERY_CODES_NOTE)).toBeInTheDocument();
    expect(calls.find((c) => c.path === routes.users.confirmTotp.path)?.body).toEqual({ code: '123456' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await within(dialog).findByText('3 recovery codes left')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('recovery-codes')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Remove authenticator app' })).toBeInTheDocument();
  });

  it('adds a passkey under its name through the browser prompt', async () => {
    const options = {
      challenge: 'cmVnaXN0ZXI',
      rp: { name: 'IR Portal' },
      user: { id: 'dQ', name: 'reports' },
    };
    const created = {
      id: 'cred-2',
      rawId: 'cred-2',
      type: 'public-key',
      response: {},
      clientExtensionResults: {},
    };
    vi.mocked(startRegistration).mockResolvedValueOnce(created as never);
    let security: AccountSecurityDto = {
      passkeys: [LAPTOP],
      totp: false,
      recoveryCodesLeft: 10,
      required: false,
    };
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.accountSecurity)]: () => jsonResponse(security),
      [routeKey(routes.users.passkeyOptions)]: () => jsonResponse({ options }),
      [routeKey(routes.users.addPasskey)]: () => {
        security = {
          ...security,
          passkeys: [LAPTOP, { ...LAPTOP, id: 'b4d1e0f2-3a4b-4c5d-8e6f-7a8b9c0d1e2f', name: 'Phone' }],
        };
        return jsonResponse({ success: true });
      },
    });
    const dialog = await open();
    const name = await within(dialog).findByLabelText(/^Passkey name/);
    expect(name).toHaveValue('This device');
    fireEvent.change(name, { target: { value: 'Phone' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add passkey' }));

    expect(await within(dialog).findByRole('button', { name: 'Remove passkey Phone' })).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: options });
    expect(calls.find((c) => c.path === routes.users.addPasskey.path)?.body).toEqual({
      name: 'Phone',
      response: created,
    });
    expect(within(dialog).queryByTestId('recovery-codes')).not.toBeInTheDocument();
  });

  it('gives new recovery codes, shown once', async () => {
    serve(
      { passkeys: [LAPTOP], totp: false, recoveryCodesLeft: 2, required: false },
      {
        [routeKey(routes.users.renewRecoveryCodes)]: () =>
          jsonResponse({ success: true, recoveryCodes: CODES }),
      },
    );
    const dialog = await open();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'New recovery codes' }));
    const codes = await within(dialog).findByTestId('recovery-codes');
    expect(within(codes).getAllByRole('listitem')).toHaveLength(CODES.length);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(within(dialog).queryByTestId('recovery-codes')).not.toBeInTheDocument());
  });

  it('opens from the menu drawer at phone width', async () => {
    vi.mocked(window.matchMedia).mockImplementation((query: string) =>
      // A phone: every max-width query holds (the header's drawer, the full-screen dialog).
      mediaQueryList(query, (q) => q.startsWith('(max-width')),
    );
    serve({ passkeys: [], totp: true, recoveryCodesLeft: 10, required: false });
    renderRoute('/', { store: storeWith(sessionUser('reports', { RunReports: true })) });
    fireEvent.click(within(await screen.findByRole('banner')).getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Account security' }));
    const dialog = await screen.findByRole('dialog', { name: 'Account security' });
    expect(await within(dialog).findByText('10 recovery codes left')).toBeInTheDocument();
  });
});
