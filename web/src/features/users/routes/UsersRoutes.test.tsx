import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CompanyDto, UserDetailDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi, type ApiCall } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });
const useradmin = sessionUser('useradmin', { EditUsers: true });

const KATE = '33333333-3333-4333-8333-333333333333';
const NEW_ID = '44444444-4444-4444-8444-444444444444';
const BHP: CompanyDto = {
  stockId: '11111111-1111-4111-8111-111111111111',
  combinedTicker: 'BHP:ASX',
  companyName: 'BHP Group',
  archived: false,
};
const CSL: CompanyDto = {
  stockId: '22222222-2222-4222-8222-222222222222',
  combinedTicker: 'CSL:ASX',
  companyName: 'CSL Limited',
  archived: false,
};

const kate: UserDetailDto = {
  id: KATE,
  username: 'kate',
  roles: [],
  permissions: [{ ...BHP, roles: ['ViewConfig'] }],
};
const empty: UserDetailDto = { id: null, username: '', roles: [], permissions: [] };

describe('Users list', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it("links each user to their page, filters by username and offers 'Add New User'", async () => {
    serveApi(fetchMock, {
      [routeKey(routes.users.list)]: () =>
        jsonResponse([
          { id: KATE, username: 'kate' },
          { id: NEW_ID, username: 'liam' },
        ]),
    });
    renderRoute('/users', { store: storeWith(useradmin) });
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(within(list).getByRole('link', { name: 'kate' })).toHaveAttribute('href', `/users/${KATE}`);
    expect(within(list).getAllByRole('link')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Add New User' })).toHaveAttribute('href', '/users/new');
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'LI' } });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('link')
          .map((l) => l.textContent),
      ).toEqual(['liam']),
    );
    expect(screen.getByTestId('users-showing')).toHaveTextContent('Showing 1 of 2');
  });
});

describe('Edit User', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const alert = vi.fn();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('alert', alert);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    alert.mockReset();
  });

  const companies = (call: ApiCall) => {
    const search = (call.params.get('search') ?? '').toLowerCase();
    return jsonResponse(
      [BHP, CSL].filter((c) => `${c.combinedTicker} ${c.companyName}`.toLowerCase().includes(search)),
    );
  };

  /** Types into 'Choose Company', waits for the service's matches (only one company), picks it. */
  async function choose(text: string, option: RegExp) {
    fireEvent.change(screen.getByRole('textbox', { name: 'Choose Company' }), { target: { value: text } });
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
        expect.stringMatching(option),
      ]),
    );
    fireEvent.click(screen.getByRole('option', { name: option }));
  }

  it("edits an existing user: username locked, blank password, Add Row's two alerts, roles and Delete", async () => {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.get, { id: KATE })]: () => jsonResponse(kate),
      [routeKey(routes.users.companies)]: companies,
      [routeKey(routes.users.save, { id: KATE })]: () =>
        jsonResponse({ success: true, errorMessage: null, id: KATE }),
    });
    renderRoute(`/users/${KATE}`, { store: storeWith(useradmin) });
    expect(await screen.findByRole('heading', { name: 'Edit User' })).toBeInTheDocument();
    const username = await screen.findByRole('textbox', { name: 'Username' });
    expect(username).toHaveValue('kate');
    expect(username).toBeDisabled();
    expect(screen.getByLabelText('Password')).toHaveAttribute('placeholder', 'Leave blank unless changing');
    // Not an Admin: the staff roles are shown but not settable, and not sent.
    expect(screen.getByRole('checkbox', { name: 'Admin' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Add Row' }));
    expect(alert).toHaveBeenLastCalledWith('Please select a Company');
    await choose('bhp', /BHP:ASX/);
    fireEvent.click(screen.getByRole('button', { name: 'Add Row' }));
    expect(alert).toHaveBeenLastCalledWith('Row with this Company already exists');
    await choose('csl', /CSL:ASX/);
    fireEvent.click(screen.getByRole('button', { name: 'Add Row' }));
    expect(alert).toHaveBeenCalledTimes(2);

    const table = screen.getByRole('table', { name: 'Permissions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Ticker',
      'Company Name',
      'Config',
      'Announcements',
      'Email Marketing',
      'Send Email',
      'Send Test Email',
      'Invoicing',
      'Comments',
      'Delete',
    ]);
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Invoicing on CSL:ASX' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Comments on BHP:ASX' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      username: 'kate',
      password: '',
      permissions: [
        { stockId: BHP.stockId, combinedTicker: 'BHP:ASX', roles: ['ViewConfig', 'ReplyToComment'] },
        { stockId: CSL.stockId, combinedTicker: 'CSL:ASX', roles: ['Invoicing'] },
      ],
    });

    fireEvent.click(within(table).getByRole('button', { name: 'Delete BHP:ASX' }));
    expect(within(table).queryByText('BHP:ASX')).not.toBeInTheDocument();
  });

  it("creates a user and goes to the returned id's page; an Admin sends the staff roles", async () => {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.users.get, { id: 'new' })]: () => jsonResponse(empty),
      [routeKey(routes.users.get, { id: NEW_ID })]: () =>
        jsonResponse({ ...empty, id: NEW_ID, username: 'mia', roles: ['RunReports'], audit: [] }),
      [routeKey(routes.users.companies)]: companies,
      [routeKey(routes.users.save, { id: 'new' })]: () =>
        jsonResponse({ success: true, errorMessage: null, id: NEW_ID }),
    });
    const { router } = renderRoute('/users/new', { store: storeWith(admin) });
    expect(await screen.findByRole('heading', { name: 'Add New User' })).toBeInTheDocument();
    const username = await screen.findByRole('textbox', { name: 'Username' });
    expect(username).toBeEnabled();
    fireEvent.change(username, { target: { value: 'mia' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Kestrel-Harbour-42' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Run Reports' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/users/${NEW_ID}`));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      username: 'mia',
      password: 'Kestrel-Harbour-42',
      permissions: [],
      roles: ['RunReports'],
    });
    expect(await screen.findByRole('heading', { name: 'Edit User' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Username' })).toHaveValue('mia');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByRole('table', { name: 'History' })).toBeInTheDocument();
  });

  it("alerts the server's errorMessage and stays when the save is refused", async () => {
    serveApi(fetchMock, {
      [routeKey(routes.users.get, { id: 'new' })]: () => jsonResponse(empty),
      [routeKey(routes.users.companies)]: companies,
      [routeKey(routes.users.save, { id: 'new' })]: () =>
        errorResponse(409, 'The username kate is already taken'),
    });
    const { router } = renderRoute('/users/new', { store: storeWith(useradmin) });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Username' }), { target: { value: 'kate' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('The username kate is already taken'));
    expect(router.state.location.pathname).toBe('/users/new');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows the history of changes to an Admin', async () => {
    serveApi(fetchMock, {
      [routeKey(routes.users.get, { id: KATE })]: () =>
        jsonResponse({
          ...kate,
          audit: [
            {
              at: '2026-11-27T01:00:00.000Z',
              actorId: null,
              actorUsername: 'admin',
              usernameBefore: 'kate',
              usernameAfter: 'kate',
              rolesBefore: [],
              rolesAfter: [],
              stockRolesBefore: {},
              stockRolesAfter: { [BHP.stockId]: ['ViewConfig'] },
              passwordChanged: true,
            },
          ],
        }),
      [routeKey(routes.users.companies)]: companies,
    });
    renderRoute(`/users/${KATE}`, { store: storeWith(admin) });
    const history = await screen.findByRole('table', { name: 'History' });
    expect(within(history).getByText('BHP:ASX: +Config')).toBeInTheDocument();
    expect(within(history).getByText('Password changed')).toBeInTheDocument();
    expect(within(history).getByText('admin')).toBeInTheDocument();
  });

  it('says so when the user cannot be loaded (unknown id, or a caller without EditUsers)', async () => {
    serveApi(fetchMock, {
      [routeKey(routes.users.get, { id: KATE })]: () => errorResponse(404, 'User not found'),
    });
    renderRoute(`/users/${KATE}`, { store: storeWith(useradmin) });
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
