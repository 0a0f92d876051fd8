import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API_KEY_MASK, BOTH_KEYS_MESSAGE, type ClientStockDto } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientStockDto } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { serveApi, type ApiCall, routeKey } from '@/test/fakeApi';
import {
  COUNT_PATH,
  emailMarketingRoutes,
  SETTINGS_PATH,
  SUBSCRIBERS_PATH,
  TEST_EMAIL_PATH,
} from '../test/fakeApi';
import { SAVED, STOCK_ID } from '../test/fixtures';
import { routes } from '@/api/routes';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const PRODUCT_API_KEY = 'product-key-1';
const posts = (calls: ApiCall[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === path);

describe('client email-marketing tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(roles: string[], overrides: Partial<ClientStockDto> = {}) {
    const stock = clientStockDto('BHP', { id: STOCK_ID, apiKey: PRODUCT_API_KEY, roles, ...overrides });
    const user = sessionUser('client', {}, { [stock.id]: roles });
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.clientGet)]: () => jsonResponse(stock),
      ...emailMarketingRoutes(STOCK_ID, SAVED),
    });
    // 'mailchimp' is the older links' name of the tab.
    renderRoute(`/client-stocks/${stock.combinedTicker}?tab=mailchimp`, { store: storeWith(user) });
    return calls;
  }

  const loaded = () => screen.findByDisplayValue(SAVED.fromName);

  it('shows the settings with the count, without any send button or subscriber list for EditMailchimp alone', async () => {
    const calls = open(['EditMailchimp']);
    await loaded();
    expect(screen.getByRole('tab', { name: 'Email marketing', selected: true })).toBeInTheDocument();
    expect(screen.getByLabelText('List ID')).toHaveValue('list-42');
    expect(await screen.findByText('1,234 subscribers')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Test Email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send To Subscribers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Subscribers' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === SUBSCRIBERS_PATH)).toBe(false);
    expect(calls.some((c) => c.path === COUNT_PATH)).toBe(true);
  });

  it('offers Send Test Email with TestSendAnnouncement on the stock, but never Send To Subscribers', async () => {
    const calls = open(['EditMailchimp', 'TestSendAnnouncement']);
    await loaded();
    expect(screen.queryByRole('button', { name: 'Send To Subscribers' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Test Email' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Test sent successfully.');
    // The stored email-marketing key is the server's to use: the body carries none.
    expect(posts(calls, TEST_EMAIL_PATH)[0]?.body).toMatchObject({ apiKey: PRODUCT_API_KEY });
    expect(posts(calls, TEST_EMAIL_PATH)[0]?.body).not.toHaveProperty('emailMarketingApiKey');
  });

  it('asks for BOTH keys when the client stock has no product API key', async () => {
    const calls = open(['EditMailchimp', 'TestSendAnnouncement'], { apiKey: null });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BOTH_KEYS_MESSAGE);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts(calls, TEST_EMAIL_PATH)).toHaveLength(0);
  });

  it("saves through the page's Save button and says 'Saved!'", async () => {
    const calls = open(['EditMailchimp']);
    await loaded();
    fireEvent.change(screen.getByLabelText('Reply to'), { target: { value: 'investors@bhp.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    await waitFor(() => expect(posts(calls, SETTINGS_PATH)).toHaveLength(1));
    expect(posts(calls, SETTINGS_PATH)[0]?.body).toEqual({
      StockId: STOCK_ID,
      Settings: { ...SAVED, apiKey: API_KEY_MASK, replyTo: 'investors@bhp.example' },
    });
  });

  it('keeps unsaved edits while another tab shows', async () => {
    open(['EditMailchimp', 'ViewConfig']);
    await loaded();
    fireEvent.change(screen.getByLabelText('Template ID'), { target: { value: 'tpl-edited' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Config' }));
    await waitFor(() => expect(screen.queryByLabelText('Template ID')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('tab', { name: 'Email marketing' }));
    expect(await screen.findByLabelText('Template ID')).toHaveValue('tpl-edited');
  });
});
