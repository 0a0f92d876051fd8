import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { ONE_TIME_PASSWORD_NOTE, PASSWORD_CHANGED, PASSWORDS_DIFFER } from './ChangePasswordModal';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

describe('Change Password (header menu)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  async function open() {
    renderRoute('/', { store: storeWith(sessionUser('client', {}, {})) });
    const banner = await screen.findByRole('banner');
    fireEvent.click(within(banner).getByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    const fill = (label: string, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${label}`)), { target: { value } });
    return { dialog, fill };
  }

  it('refuses a confirmation that differs without calling the server', async () => {
    const calls = serveApi(fetchMock, {});
    const { dialog, fill } = await open();
    fill('Current password', 'Client!2026');
    fill('New password', 'Harbour-Kestrel-77');
    fill('Confirm new password', 'Harbour-Kestrel-78');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PASSWORDS_DIFFER);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal, then changes the password with the current one", async () => {
    let answer = errorResponse(400, 'The current password is wrong');
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.changeOwnPassword)]: () => answer,
    });
    const { dialog, fill } = await open();
    fill('Current password', 'wrong-one');
    fill('New password', 'Harbour-Kestrel-77');
    fill('Confirm new password', 'Harbour-Kestrel-77');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The current password is wrong');

    answer = jsonResponse({ success: true });
    fill('Current password', 'Client!2026');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(PASSWORD_CHANGED);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { currentPassword: 'wrong-one', newPassword: 'Harbour-Kestrel-77' },
      { currentPassword: 'Client!2026', newPassword: 'Harbour-Kestrel-77' },
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Change Password' })).not.toBeInTheDocument(),
    );
  });

  it('asks a user whose password someone else set for a new one before the page, and cannot be dismissed', async () => {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.changeOwnPassword)]: () => jsonResponse({ success: true }),
      [routeKey(routes.stocks.referers)]: () => jsonResponse([]),
    });
    const { router } = renderRoute('/referers', {
      store: storeWith({ ...sessionUser('admin', { Admin: true }), mustChangePassword: true }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Choose a new password' });
    expect(within(dialog).getByText(ONE_TIME_PASSWORD_NOTE)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Choose a new password' })).toBeInTheDocument();
    // Nothing of the page is asked for while the password is one-time (the server would refuse it).
    expect(screen.queryByRole('heading', { name: 'Referers' })).not.toBeInTheDocument();

    const fill = (label: string, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${label}`)), { target: { value } });
    fill('Current password', 'Set-By-Someone-Else-1');
    fill('New password', 'Harbour-Kestrel-77');
    fill('Confirm new password', 'Harbour-Kestrel-77');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('heading', { name: 'Referers' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/referers');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { currentPassword: 'Set-By-Someone-Else-1', newPassword: 'Harbour-Kestrel-77' },
    ]);
  });
});
