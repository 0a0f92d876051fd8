import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API_KEY_MASK, BOTH_KEYS_MESSAGE, sendToSubscribersLimitMessage } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { SMALL_SCREEN_QUERY } from '@/lib/ui/useSmallScreen';
import { mediaQueryList } from '@/test/matchMedia';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { confirmSendText, SEND_TO_SUBSCRIBERS_NOTE } from '../model/emailMarketingForm';
import { errorResponse, serveApi, type ApiCall, type Handler, routeKey } from '@/test/fakeApi';
import {
  COUNT_PATH,
  emailMarketingRoutes,
  SETTINGS_PATH,
  SUBSCRIBERS_PATH,
  DELIVERABILITY_PATH,
  TEST_EMAIL_PATH,
  TO_SUBSCRIBERS_PATH,
} from '../test/fakeApi';
import { NO_CHOICES, SAVED, STOCK, STOCK_ID, subscriber } from '../test/fixtures';
import { routes } from '@/api/routes';
import { OLDER_SUBSCRIBERS_FAILED, olderSubscribersText } from './SubscribersSection';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });

const posts = (calls: ApiCall[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === path);
const gets = (calls: ApiCall[], path: string) => calls.filter((c) => c.method === 'GET' && c.path === path);

describe('staff Email marketing tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open({
    stock = STOCK,
    stored = SAVED,
    options = {},
    handlers = {},
  }: {
    stock?: StaffStock;
    stored?: typeof SAVED | null;
    options?: Parameters<typeof emailMarketingRoutes>[2];
    handlers?: Record<string, Handler>;
  } = {}) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.get, { combinedTicker: 'BHP:ASX' })]: () => jsonResponse(stock),
      ...emailMarketingRoutes(STOCK_ID, stored, options),
      ...handlers,
    });
    renderRoute('/stocks/BHP:ASX/email-marketing', { store: storeWith(admin) });
    return calls;
  }

  const field = (label: string) => screen.getByLabelText(label);
  const loaded = () => screen.findByDisplayValue(SAVED.fromName);
  const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

  it('loads the saved settings of the stock into the form', async () => {
    const calls = open();
    await loaded();
    expect(gets(calls, SETTINGS_PATH)[0]?.params.get('id')).toBe(STOCK_ID);
    expect(field('Provider type')).toHaveValue('mailchimp');
    expect(within(field('Provider type')).getByRole('option', { selected: true })).toHaveTextContent(
      'Mailchimp-type',
    );
    expect(field('List ID')).toHaveValue('list-42');
    // Write-only: the stored key shows as the mask, never itself.
    expect(field('API key')).toHaveValue(API_KEY_MASK);
    expect(screen.queryByDisplayValue(SAVED.apiKey)).not.toBeInTheDocument();
    expect(field('Template ID')).toHaveValue('tpl-7');
    expect(field('Reply to')).toHaveValue('ir@bhp.example');
    expect(field('From name')).toHaveValue('BHP Investor Relations');
    expect(field('Saved segment ID')).toHaveValue('seg-3');
    expect(field('Test email addresses')).toHaveValue('a@bhp.example; b@bhp.example');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('starts blank on the first provider type when the stock has no settings yet', async () => {
    open({ stored: null });
    expect(await screen.findByLabelText('List ID')).toHaveValue('');
    expect(field('Provider type')).toHaveValue('mailchimp');
    expect(field('API key')).toHaveValue('');
    expect(screen.getByTestId('subscriber-count')).toHaveTextContent(
      'Enter the API key and list ID to see the subscriber count',
    );
  });

  it('shows Client ID only for the Campaign-Monitor-type provider', async () => {
    open();
    await loaded();
    expect(screen.queryByLabelText('Client ID')).not.toBeInTheDocument();
    fireEvent.change(field('Provider type'), { target: { value: 'campaign-monitor' } });
    expect(within(field('Provider type')).getByRole('option', { selected: true })).toHaveTextContent(
      'Campaign-Monitor-type',
    );
    expect(field('Client ID')).toHaveValue('');
    fireEvent.change(field('Provider type'), { target: { value: 'mailchimp' } });
    expect(screen.queryByLabelText('Client ID')).not.toBeInTheDocument();
  });

  it("saves {StockId, Settings} through the page's Save button, says 'Saved!' and fetches the settings again", async () => {
    const calls = open();
    await loaded();
    type('From name', 'BHP IR');
    type('Template ID', ' tpl-8 ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    expect(posts(calls, SETTINGS_PATH).map((c) => c.body)).toEqual([
      {
        StockId: STOCK_ID,
        Settings: { ...SAVED, apiKey: API_KEY_MASK, fromName: 'BHP IR', templateId: 'tpl-8' },
      },
    ]);
    // The save's tag refreshes the settings.
    await waitFor(() => expect(gets(calls, SETTINGS_PATH).length).toBeGreaterThanOrEqual(2));
    expect(field('Template ID')).toHaveValue('tpl-8');
  });

  it('saves the client ID with the second provider type and never a hidden one', async () => {
    const calls = open();
    await loaded();
    fireEvent.change(field('Provider type'), { target: { value: 'campaign-monitor' } });
    type('Client ID', 'client-9');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Saved!' });
    expect(posts(calls, SETTINGS_PATH)[0]?.body).toEqual({
      StockId: STOCK_ID,
      Settings: { ...SAVED, apiKey: API_KEY_MASK, provider: 'campaign-monitor', clientId: 'client-9' },
    });
  });

  it("answers 'Nothing to Save' without a call when nothing changed", async () => {
    const calls = open();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();
    expect(posts(calls, SETTINGS_PATH)).toHaveLength(0);
  });

  it('shows a refused save’s errorMessage in the Save failed modal', async () => {
    open({
      handlers: {
        [`POST ${SETTINGS_PATH}`]: () => errorResponse(400, 'Settings.replyTo: must be an email address'),
      },
    });
    await loaded();
    type('Reply to', 'nobody');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save failed' });
    expect(dialog).toHaveTextContent('Settings.replyTo: must be an email address');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('shows the subscriber count beside the API key, asked on load with the stored key (none in the URL)', async () => {
    const calls = open();
    await loaded();
    expect(await screen.findByText('1,234 subscribers')).toBeInTheDocument();
    expect(field('API key')).toHaveAccessibleDescription('1,234 subscribers');
    const [count] = gets(calls, COUNT_PATH);
    expect(Object.fromEntries(count?.params ?? [])).toEqual({
      stockId: STOCK_ID,
      provider: 'mailchimp',
      listId: 'list-42',
      clientId: '',
    });
  });

  it('a new key typed is saved with the settings, then counted with the stored key: never in a URL', async () => {
    const calls = open();
    await loaded();
    await screen.findByText('1,234 subscribers');
    type('API key', 'new-key-us9');
    expect(
      await screen.findByText('Save to see the subscriber count with the new API key'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Saved!' });
    expect(posts(calls, SETTINGS_PATH)[0]?.body).toEqual({
      StockId: STOCK_ID,
      Settings: { ...SAVED, apiKey: 'new-key-us9' },
    });
    await waitFor(() => expect(field('API key')).toHaveValue(API_KEY_MASK));
    expect(await screen.findByText('1,234 subscribers')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'GET' && c.params.toString().includes('new-key-us9'))).toBe(false);
  });

  it('asks the count again once the fields settle, not on every keystroke', async () => {
    const calls = open();
    await loaded();
    await screen.findByText('1,234 subscribers');
    type('List ID', 'l');
    type('List ID', 'li');
    type('List ID', 'list-99');
    await waitFor(() => expect(gets(calls, COUNT_PATH)).toHaveLength(2));
    expect(gets(calls, COUNT_PATH)[1]?.params.get('listId')).toBe('list-99');
    await screen.findByText('1,234 subscribers');
    // Nothing more is asked after the value settled.
    await act(() => new Promise((resolve) => setTimeout(resolve, 700)));
    expect(gets(calls, COUNT_PATH)).toHaveLength(2);
  });

  it('shows a failed count’s message in red', async () => {
    open({ options: { count: { success: false, count: null, message: 'API key is invalid' } } });
    await loaded();
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('API key is invalid');
    expect(failure).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(screen.queryByText(/subscribers$/)).not.toBeInTheDocument();
  });

  it('shows an HTTP failure of the count in red too', async () => {
    open({ handlers: { [`GET ${COUNT_PATH}`]: () => errorResponse(502, 'The provider did not answer') } });
    await loaded();
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('The provider did not answer');
    expect(failure).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
  });

  it('asks for BOTH keys without calling or confirming when the stock has no product API key', async () => {
    const calls = open({ stock: { ...STOCK, apiKey: null } });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    expect(await screen.findByTestId('send-result')).toHaveTextContent(BOTH_KEYS_MESSAGE);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send To Subscribers' }));
    expect(screen.getByTestId('send-result')).toHaveTextContent(BOTH_KEYS_MESSAGE);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts(calls, TEST_EMAIL_PATH)).toHaveLength(0);
    expect(posts(calls, TO_SUBSCRIBERS_PATH)).toHaveLength(0);
  });

  it('asks for BOTH keys when the email-marketing API key is blank', async () => {
    const calls = open();
    await loaded();
    type('API key', '  ');
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    expect(await screen.findByTestId('send-result')).toHaveTextContent(BOTH_KEYS_MESSAGE);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts(calls, TEST_EMAIL_PATH)).toHaveLength(0);
  });

  it('sends a test email only after the confirmation, then shows the message and the preview link', async () => {
    const calls = open();
    await loaded();
    type('Test email addresses', 'me@bhp.example');
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Test Email' });
    expect(dialog).toHaveTextContent(
      confirmSendText('test', { ...SAVED, testEmailAddresses: 'me@bhp.example' }),
    );
    expect(posts(calls, TEST_EMAIL_PATH)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    const result = await screen.findByRole('status');
    expect(result).toHaveTextContent('Test sent successfully.');
    const preview = within(result).getByRole('link', { name: 'Preview' });
    expect(preview).toHaveAttribute('href', 'https://preview.example/c/1');
    expect(preview).toHaveAttribute('target', '_blank');
    // Spec section 7's body: the product API key names the stock; the settings as typed, not as saved; the
    // stored email-marketing key is the server's to use (the body has none).
    expect(posts(calls, TEST_EMAIL_PATH).map((c) => c.body)).toEqual([
      {
        apiKey: STOCK.apiKey,
        provider: 'mailchimp',
        listId: 'list-42',
        templateId: 'tpl-7',
        replyTo: 'ir@bhp.example',
        fromName: 'BHP Investor Relations',
        clientId: '',
        savedSegmentId: 'seg-3',
        testEmailAddresses: 'me@bhp.example',
      },
    ]);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const calls = open();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Test Email' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(calls, TEST_EMAIL_PATH)).toHaveLength(0);
    expect(screen.queryByTestId('send-result')).not.toBeInTheDocument();
  });

  it('shows the errorMessage of a failed test send', async () => {
    open({
      options: {
        testSend: { errorMessage: 'Template tpl-7 was not found', previewUrl: null, message: null },
      },
    });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Email' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send Test Email' })).getByRole('button', {
        name: 'Send',
      }),
    );
    const failure = await screen.findByTestId('send-result');
    expect(failure).toHaveRole('alert');
    expect(failure).toHaveTextContent('Template tpl-7 was not found');
    expect(screen.queryByRole('link', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('gives admins Send To Subscribers with its 5-subscriber note, confirmed, and shows the campaign', async () => {
    const calls = open();
    await loaded();
    expect(screen.getByText(SEND_TO_SUBSCRIBERS_NOTE)).toBeInTheDocument();
    expect(SEND_TO_SUBSCRIBERS_NOTE).toContain('at most 5 subscribers');
    fireEvent.click(screen.getByRole('button', { name: 'Send To Subscribers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send To Subscribers' });
    expect(dialog).toHaveTextContent(confirmSendText('subscribers', SAVED));
    expect(posts(calls, TO_SUBSCRIBERS_PATH)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    const result = await screen.findByRole('status');
    expect(result).toHaveTextContent('Campaign created successfully.');
    expect(within(result).getByRole('link', { name: 'Preview' })).toHaveAttribute(
      'href',
      'https://preview.example/c/2',
    );
    expect(posts(calls, TO_SUBSCRIBERS_PATH)).toHaveLength(1);
    expect(posts(calls, TEST_EMAIL_PATH)).toHaveLength(0);
  });

  it('shows the server’s refusal of a list larger than 5 subscribers', async () => {
    open({
      handlers: {
        [`POST ${TO_SUBSCRIBERS_PATH}`]: () => errorResponse(400, sendToSubscribersLimitMessage(12)),
      },
    });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Send To Subscribers' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send To Subscribers' })).getByRole('button', {
        name: 'Send',
      }),
    );
    expect(await screen.findByTestId('send-result')).toHaveTextContent(sendToSubscribersLimitMessage(12));
  });

  describe('Deliverability section', () => {
    it('sums the last 30 days up, charts them, warns over the 0.3% complaint rate and lists the alert latencies', async () => {
      const deliverability = {
        days: [
          { day: '2026-12-01', sent: 500, accepted: 498, bounced: 2, complained: 2, unsubscribed: 1 },
          { day: '2026-12-02', sent: 0, accepted: 0, bounced: 0, complained: 0, unsubscribed: 0 },
        ],
        totals: { sent: 500, accepted: 498, bounced: 2, complained: 2, unsubscribed: 1 },
        complaintRate: 2 / 498,
        alerts: [
          {
            sendGuid: 'a1',
            headline: 'Half Year Results',
            firstAcceptedAt: '2026-12-01T00:00:01.000Z',
            alertLatencyMs: 1234,
          },
        ],
      };
      const calls = open({ options: { deliverability } });
      const section = await screen.findByRole('region', { name: 'Deliverability' });
      expect(await within(section).findByTestId('deliverability-summary')).toHaveTextContent(
        'Last 30 days: 500 sent, 498 accepted, 2 bounced, 2 complaints (0.4% of accepted; the limit is 0.3%), 1 unsubscribed',
      );
      expect(within(section).getByRole('alert')).toHaveTextContent('Complaint rate over 0.3%');
      expect(gets(calls, DELIVERABILITY_PATH)[0]?.params.get('stockId')).toBe(STOCK_ID);
      const table = within(section).getByRole('table', { name: 'Alert latency' });
      expect(within(table).getAllByRole('row')[1]).toHaveTextContent(
        'Half Year Results1 Dec 2026 11:00 AM1.2 s',
      );
      // The chart (Highcharts, loaded with the panel) names its series.
      expect(await within(section).findByText('Complaint rate', {}, { timeout: 10_000 })).toBeInTheDocument();
    });
  });

  describe('Subscribers section', () => {
    const OLD = subscriber({
      email: 'old@example.com',
      status: 'unsubscribed',
      subscribedAt: '2025-01-10T22:30:00.000Z',
      confirmedAt: '2025-01-10T23:00:00.000Z',
      unsubscribedAt: '2025-02-01T03:15:00.000Z',
    });
    const NEW = subscriber({
      email: 'new@example.com',
      status: 'pending',
      subscribedAt: '2025-03-21T21:50:00.000Z',
      confirmedAt: null,
    });
    const BOUNCED = subscriber({
      email: 'gone@example.com',
      preference: 'price-sensitive',
      pausedUntil: '2099-05-01T00:00:00.000Z',
      subscribedAt: '2025-02-10T22:30:00.000Z',
      confirmedAt: '2025-02-10T23:00:00.000Z',
      suppressed: { reason: 'hard-bounce', since: '2025-03-01T00:00:00.000Z', detail: '5.1.1 User unknown' },
    });
    const LIST = {
      subscribers: [OLD, NEW, BOUNCED],
      counts: { pending: 1, confirmed: 3, unsubscribed: 1 },
      choices: { all: 2, 'price-sensitive': 1, paused: 1, suppressed: 1 },
      next: null,
    };

    it('shows the counts per status and the subscribers newest first with Sydney dates', async () => {
      const calls = open({ options: { subscribers: LIST } });
      const section = await screen.findByRole('region', { name: 'Subscribers' });
      const table = await within(section).findByRole('table', { name: 'Subscribers' });
      expect(gets(calls, SUBSCRIBERS_PATH)[0]?.params.get('combinedTicker')).toBe('BHP:ASX');
      expect(within(section).getByTestId('subscriber-count-confirmed')).toHaveTextContent('Confirmed3');
      expect(within(section).getByTestId('subscriber-count-pending')).toHaveTextContent('Pending1');
      expect(within(section).getByTestId('subscriber-count-unsubscribed')).toHaveTextContent('Unsubscribed1');
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Email', 'Status', 'Receives', 'Subscribed', 'Confirmed', 'Unsubscribed']);
      const rows = within(table).getAllByRole('row').slice(1);
      expect(
        rows.map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
      ).toEqual([
        ['new@example.com', 'Pending', 'Every announcement', '22 Mar 2025 8:50 AM', '', ''],
        [
          'gone@example.com',
          'ConfirmedSuppressed: Hard bounce',
          'Price-sensitive only, paused until 1 May 2099',
          '11 Feb 2025 9:30 AM',
          '11 Feb 2025 10:00 AM',
          '',
        ],
        [
          'old@example.com',
          'Unsubscribed',
          'Every announcement',
          '11 Jan 2025 9:30 AM',
          '11 Jan 2025 10:00 AM',
          '1 Feb 2025 2:15 PM',
        ],
      ]);
      // Why it is suppressed, and since when, for a pointer, a keyboard and a screen reader.
      expect(within(table).getByTestId('subscriber-suppressed')).toHaveAttribute(
        'title',
        'Not mailed since 1 Mar 2025 11:00 AM: 5.1.1 User unknown',
      );
      // Of the confirmed: what they chose, the paused, the suppressed.
      expect(within(section).getByTestId('subscriber-choice-all')).toHaveTextContent('Every announcement2');
      expect(within(section).getByTestId('subscriber-choice-price-sensitive')).toHaveTextContent(
        'Price-sensitive only1',
      );
      expect(within(section).getByTestId('subscriber-choice-paused')).toHaveTextContent('Paused1');
      expect(within(section).getByTestId('subscriber-choice-suppressed')).toHaveTextContent('Suppressed1');
    });

    it('filters the list by what subscribers chose, the paused and the suppressed', async () => {
      open({ options: { subscribers: LIST } });
      const section = await screen.findByRole('region', { name: 'Subscribers' });
      const table = await within(section).findByRole('table', { name: 'Subscribers' });
      const emails = () =>
        within(table)
          .getAllByRole('row')
          .slice(1)
          .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
      expect(emails()).toEqual(['new@example.com', 'gone@example.com', 'old@example.com']);
      const show = async (label: string) => {
        fireEvent.click(within(section).getByRole('textbox', { name: 'Show' }));
        fireEvent.click(await screen.findByRole('option', { name: label }));
      };
      await show('Price-sensitive only');
      await waitFor(() => expect(emails()).toEqual(['gone@example.com']));
      await show('Paused');
      await waitFor(() => expect(emails()).toEqual(['gone@example.com']));
      // Every announcement: the confirmed who chose it (a pending one has chosen nothing yet).
      await show('Every announcement');
      expect(await within(section).findByText('No subscribers of this kind')).toBeInTheDocument();
      await show('Everyone');
      await waitFor(() => expect(emails()).toHaveLength(3));
    });

    it('turns the table into cards on phones', async () => {
      vi.mocked(window.matchMedia).mockImplementation((query) =>
        mediaQueryList(query, (q) => q === SMALL_SCREEN_QUERY),
      );
      open({ options: { subscribers: LIST } });
      const list = await screen.findByRole('list', { name: 'Subscribers' });
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(3);
      expect(cards[1]).toHaveTextContent('ReceivesPrice-sensitive only, paused until 1 May 2099');
      expect(cards[0]).toHaveTextContent('Emailnew@example.com');
      expect(cards[1]).toHaveTextContent('Suppressed: Hard bounce');
      expect(cards[2]).toHaveTextContent('Unsubscribed1 Feb 2025 2:15 PM');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    });

    it('lists all 50,000 subscribers in one list with no pages on screen, the newest page first and the rest as it comes', async () => {
      const start = Date.UTC(2020, 0, 1);
      // Newest first, as the service answers them: the first page 500, the rest 5,000 at a time.
      const many = Array.from({ length: 50_000 }, (_, i) =>
        subscriber({
          email: `s${i}@example.com`,
          subscribedAt: new Date(start + i * 60_000).toISOString(),
        }),
      ).reverse();
      const counts = { pending: 0, confirmed: 50_000, unsubscribed: 0 };
      const pageOf = (from: number, size: number) => {
        const page = many.slice(from, from + size);
        return {
          subscribers: page,
          counts,
          choices: NO_CHOICES,
          next: from + size < many.length ? page[page.length - 1]!.id : null,
        };
      };
      const calls = open({
        handlers: {
          [`GET ${SUBSCRIBERS_PATH}`]: ({ params }) => {
            const after = params.get('after');
            return jsonResponse(
              after === null ? pageOf(0, 500) : pageOf(many.findIndex((s) => s.id === after) + 1, 5_000),
            );
          },
        },
      });
      const table = await screen.findByRole('table', { name: 'Subscribers' }, { timeout: 15_000 });
      await waitFor(() => expect(table).toHaveAttribute('aria-rowcount', '50001'), { timeout: 60_000 });
      expect(screen.queryByText(/Loading more subscribers/)).not.toBeInTheDocument();
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows.length).toBeLessThan(60);
      // Newest first: the last one subscribed heads the list.
      expect(rows[0]).toHaveTextContent('s49999@example.com');
      expect(rows[0]).toHaveAttribute('aria-rowindex', '2');
      expect(screen.queryByLabelText('Subscriber pages')).not.toBeInTheDocument();
      // Each page asked once, after the one before: 500, then 5,000 at a time.
      expect(gets(calls, SUBSCRIBERS_PATH).map((c) => c.params.get('after'))).toEqual([
        null,
        ...Array.from({ length: 10 }, (_, k) => many[499 + k * 5_000]!.id),
      ]);
    });

    it('says how many of the stock’s are shown while the rest load, and why a page did not come', async () => {
      const [a, b] = [subscriber({ email: 'a@example.com' }), subscriber({ email: 'b@example.com' })];
      const counts = { pending: 0, confirmed: 3, unsubscribed: 0 };
      open({
        handlers: {
          [`GET ${SUBSCRIBERS_PATH}`]: ({ params }) =>
            params.get('after') === null
              ? jsonResponse({ subscribers: [a, b], counts, choices: NO_CHOICES, next: b.id })
              : errorResponse(
                  404,
                  'The subscribers changed since this list was read: reload the page to see them',
                ),
        },
      });
      const section = await screen.findByRole('region', { name: 'Subscribers' });
      const alert = await within(section).findByRole('alert');
      expect(alert).toHaveTextContent(OLDER_SUBSCRIBERS_FAILED);
      expect(alert).toHaveTextContent('The subscribers changed since this list was read');
      expect(within(section).getByTestId('subscriber-count-confirmed')).toHaveTextContent('Confirmed3');
      expect(olderSubscribersText(2, counts)).toBe('Loading more subscribers… 2 of 3 shown');
    });

    it('says so when the stock has no subscribers', async () => {
      open();
      expect(await screen.findByText('No subscribers yet')).toBeInTheDocument();
    });

    it('shows the error when the list cannot be loaded', async () => {
      open({
        handlers: { [`GET ${SUBSCRIBERS_PATH}`]: () => errorResponse(503, 'Email service unavailable') },
      });
      const section = await screen.findByRole('region', { name: 'Subscribers' });
      expect(await within(section).findByRole('alert')).toHaveTextContent('Email service unavailable');
    });
  });
});
