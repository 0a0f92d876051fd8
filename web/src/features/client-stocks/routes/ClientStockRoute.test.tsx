import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ClientStockDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute, requestOf, sessionUser, storeWith } from '@/test/render';
import { ClientStockRoute } from './ClientStockRoute';
import { clientStockDto } from '@/test/fixtures';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const client = sessionUser('client', {}, { 's-1': ['ViewConfig'] });
const routeTable = [{ path: '/client-stocks/:combinedTicker', element: <ClientStockRoute /> }];
const ALL_ROLES = ['ViewConfig', 'EditAnnouncements', 'EditMailchimp', 'ReplyToComment', 'Invoicing'];

const stock = (overrides: Partial<ClientStockDto> = {}) =>
  clientStockDto('ABC', {
    id: 's-1',
    apiKey: 'key',
    confirmationEmail: 'a@x.com',
    sendPriceSensitiveAnnouncements: true,
    moderatorEmail: 'mod@x.com',
    announcementCommentTemplate: 'Dear {name}',
    roles: ALL_ROLES,
    ...overrides,
  });

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const tabNames = () => screen.queryAllByRole('tab').map((t) => t.textContent);

describe('ClientStockRoute', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('loads the stock and shows the tabs the roles allow, Config first', async () => {
    fetchMock.mockResolvedValue(jsonResponse(stock()));
    renderRoute('/client-stocks/ABC:ASX', { store: storeWith(client), routeTable });

    expect(await screen.findByRole('tab', { name: 'Config' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('heading', { name: 'Client Stock' })).toBeInTheDocument();
    expect(screen.getByTestId('route-param-combinedTicker')).toHaveTextContent('ABC:ASX');
    const url = new URL(requestOf(fetchMock).url);
    expect(url.pathname).toBe(routes.stocks.clientGet.path);
    expect(url.searchParams.get('combinedTicker')).toBe('ABC:ASX');
    expect(tabNames()).toEqual(['Config', 'Announcements', 'Email marketing', 'Comments']);
    expect(screen.getByLabelText('Website')).toHaveValue('abc.com.au');
    expect(screen.getByLabelText('Email price-sensitive announcements')).toBeChecked();
    expect(screen.getByLabelText('Announcement comment template')).toHaveAttribute('rows', '10');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('saves the Config tab: Saving..., then Saved!, sending only the client fields', async () => {
    const answer = deferred<Response>();
    const savedStock = stock({
      roles: ['ViewConfig'],
      websiteUrl: 'www.abc.com',
      autoSendNonPriceSensitiveAnnouncements: true,
      autoSendFilter: 'appendix\\s*3[by]',
    });
    fetchMock.mockResolvedValueOnce(jsonResponse(stock({ roles: ['ViewConfig'] })));
    fetchMock.mockReturnValueOnce(answer.promise);
    // The refetch after the save (its tag is invalidated).
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(savedStock)));
    renderRoute('/client-stocks/ABC:ASX', { store: storeWith(client), routeTable });

    fireEvent.change(await screen.findByLabelText('Website'), { target: { value: 'www.abc.com' } });
    fireEvent.click(screen.getByLabelText('Send non-price-sensitive announcements by email marketing'));
    fireEvent.click(screen.getByRole('button', { name: 'Standard filter (Appendix 3B/3Y)' }));
    expect(screen.getByLabelText('Auto-send filter')).toHaveValue('appendix\\s*3[by]');
    expect(screen.getByLabelText('Auto-send filter')).toHaveAccessibleDescription(
      "Headlines matching this filter are NOT sent automatically (the standard filter keeps routine Appendix 3B/3Y forms out of subscribers' inboxes); they can still be sent by hand from the Announcements tab.",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    const request = requestOf(fetchMock, 1);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe(routes.stocks.clientSave.path);
    const body = (await request.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      combinedTicker: 'ABC:ASX',
      websiteUrl: 'www.abc.com',
      autoSendNonPriceSensitiveAnnouncements: true,
      autoSendFilter: 'appendix\\s*3[by]',
      companyName: 'ABC Ltd',
    });
    expect(body).not.toHaveProperty('moderatorEmail');
    expect(body).not.toHaveProperty('apiKey');
    expect(body).not.toHaveProperty('roles');

    answer.resolve(jsonResponse({ success: true, stock: savedStock, errorMessage: null }));
    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    expect(screen.getByLabelText('Website')).toHaveValue('www.abc.com');
    // The refetch after the save has answered and the form holds what was saved (on a loaded machine a
    // click before that met a form still reading the old stock, and sent it again).
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(3));
    await waitFor(() => expect(screen.getByLabelText('Website')).toHaveValue('www.abc.com'));
    // Saved: a second click has nothing to send.
    fireEvent.click(screen.getByRole('button', { name: /^(Saved!|Save)$/ }));
    expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
  });

  it('sends the comment fields with ReplyToComment', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(stock()));
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ success: true, stock: stock({ moderatorEmail: 'm2@x.com' }), errorMessage: null }),
    );
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(stock({ moderatorEmail: 'm2@x.com' }))));
    renderRoute('/client-stocks/ABC:ASX', { store: storeWith(client), routeTable });
    fireEvent.change(await screen.findByLabelText('Moderator emails'), { target: { value: 'm2@x.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Saved!' });
    const body = (await requestOf(fetchMock, 1).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      moderatorEmail: 'm2@x.com',
      announcementCommentTemplate: 'Dear {name}',
      companyLogoUrl: '',
    });
  });

  it("says 'Nothing to Save' when nothing changed", async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(stock())));
    renderRoute('/client-stocks/ABC:ASX', { store: storeWith(client), routeTable });
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Nothing to Save')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("shows the server's errorMessage in a modal and resets the button", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(stock({ roles: ['ViewConfig'] })));
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Invalid email address in Confirmation emails: nope',
          errorMessage: 'Invalid email address in Confirmation emails: nope',
          success: false,
          stock: null,
        },
        400,
      ),
    );
    renderRoute('/client-stocks/ABC:ASX', { store: storeWith(client), routeTable });
    fireEvent.change(await screen.findByLabelText('Confirmation emails'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Invalid email address in Confirmation emails: nope'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByLabelText('Confirmation emails')).toHaveValue('nope');
  });

  it('has no Config tab without ViewConfig and opens the first allowed tab', async () => {
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        input instanceof Request &&
          new URL(input.url).pathname.startsWith(
            routes.announcements.list.path.replace('{combinedTicker}', ''),
          )
          ? jsonResponse({ announcements: [], initialPoll: null })
          : input instanceof Request &&
              new URL(input.url).pathname === routes.emailMarketing.deliverability.path
            ? jsonResponse({
                days: [],
                totals: { sent: 0, accepted: 0, bounced: 0, complained: 0, unsubscribed: 0 },
                complaintRate: null,
                alerts: [],
              })
            : jsonResponse(stock({ roles: ['EditAnnouncements', 'EditMailchimp'] })),
      ),
    );
    renderRoute('/client-stocks/ABC:ASX', { store: storeWith(client), routeTable });
    expect(await screen.findByRole('tab', { name: 'Announcements' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(tabNames()).toEqual(['Announcements', 'Email marketing']);
    expect(screen.queryByLabelText('Website')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Add Announcement' })).toBeInTheDocument();
    // Announcements saves in its own form: no page Save on it.
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Email marketing' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
  });

  it('opens the tab named by ?tab= and writes the chosen tab back', async () => {
    fetchMock.mockResolvedValue(jsonResponse(stock()));
    const { router } = renderRoute('/client-stocks/ABC:ASX?tab=comments', {
      store: storeWith(client),
      routeTable,
    });
    expect(await screen.findByRole('tab', { name: 'Comments' })).toHaveAttribute('aria-selected', 'true');
    // Comments has no save.
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Email marketing' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=email-marketing'));
    expect(screen.getByRole('tab', { name: 'Email marketing' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('says the user has no access on a 403', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        { statusCode: 403, error: 'Forbidden', message: 'Forbidden', errorMessage: 'Forbidden' },
        403,
      ),
    );
    renderRoute('/client-stocks/XYZ:ASX', { store: storeWith(client), routeTable });
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have access to this stock');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('says the stock was not found on a 404', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ statusCode: 404, errorMessage: 'Stock NOPE:ASX not found' }, 404),
    );
    renderRoute('/client-stocks/NOPE:ASX', { store: storeWith(client), routeTable });
    expect(await screen.findByRole('alert')).toHaveTextContent('Stock NOPE:ASX not found');
  });
});
