import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  ADDRESS_SUGGESTIONS_PAUSED_MESSAGE,
  OPTION_GROUP_ARCHIVED_MESSAGE,
  ORDER_FORM_TOKEN_MESSAGE,
  REQUIRED_ORDER_FIELDS,
  ORDER_FORM_TEXTS,
  unknownOptionGroupMessage,
  type ServiceOption,
} from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi, type ApiCall, type Handler } from '@/test/fakeApi';
import { jsonResponse, renderRoute } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const OPTIONS: ServiceOption[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    groupId: 'default',
    name: 'Standard',
    price: 1800,
    lineItems: ['Share price widgets', 'Announcement emails'],
    isDefault: true,
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    groupId: 'default',
    name: 'Premium',
    price: 2400,
    lineItems: ['Everything in Standard'],
    isDefault: false,
  },
];

const LABELS: Record<string, string> = {
  companyName: 'Company Name',
  ticker: 'Ticker/ASX Code',
  website: 'Website',
  address: 'Billing Address',
  contactName: 'Contact Name',
  contactPhone: 'Contact Phone',
  contactEmail: 'Contact Email',
  abn: 'ABN',
  authorisedBy: 'Authorised By',
};

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST');

describe('Order Form screen', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(
    submit = () => jsonResponse({ success: true, id: '33333333-3333-4333-8333-333333333333' }),
    path = '/new-order',
    addresses: Handler = () => jsonResponse({ available: false, suggestions: [] }),
  ) {
    let tokens = 0;
    const calls = serveApi(fetchMock, {
      // A new token each time it is asked for, as the gateway issues them.
      [routeKey(routes.stocks.orderFormToken)]: () => jsonResponse({ token: `form-token-${++tokens}` }),
      // As the server answers: no group named is the default group; an unknown one is 404.
      [routeKey(routes.stocks.serviceOptions)]: (call) => {
        const groupId = call.params.get('groupId');
        if (groupId === 'archived') return errorResponse(404, OPTION_GROUP_ARCHIVED_MESSAGE);
        return groupId && groupId !== 'default'
          ? errorResponse(404, unknownOptionGroupMessage(groupId))
          : jsonResponse({ options: OPTIONS });
      },
      [routeKey(routes.stocks.addressSuggestions)]: addresses,
      [routeKey(routes.stocks.submitOrder)]: submit,
    });
    renderRoute(path);
    return calls;
  }

  const fill = () => {
    for (const [field, label] of Object.entries(LABELS))
      fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value: `${field} value` } });
  };
  const submitButton = () =>
    screen.getByRole('button', {
      name: new RegExp(`^(${Object.values(ORDER_FORM_TEXTS).slice(0, 3).join('|')})$`),
    });

  it('shows the option cards with the default preselected, and the terms', async () => {
    open();
    const first = await screen.findByRole('checkbox', {
      name: 'OPTION 1 - $1,800 + GST annual subscription',
    });
    const second = screen.getByRole('checkbox', { name: 'OPTION 2 - $2,400 + GST annual subscription' });
    expect(first).toBeChecked();
    expect(second).not.toBeChecked();
    fireEvent.click(second);
    expect(second).toBeChecked();
    expect(first).not.toBeChecked();
    expect(screen.getByText('Share price widgets')).toBeInTheDocument();
    expect(screen.getByText('Payment is due within 7 days of the invoice date.')).toBeInTheDocument();
    expect(screen.getByText('Cancellation policy')).toBeInTheDocument();
  });

  it('says an unknown order form is unknown instead of showing the default options', async () => {
    const calls = open(undefined, '/new-order/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Order form not available${unknownOptionGroupMessage('nope')}`,
    );
    expect(calls.find((c) => c.path === routes.stocks.serviceOptions.path)?.params.get('groupId')).toBe(
      'nope',
    );
    expect(screen.queryByRole('checkbox', { name: /OPTION 1/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ORDER_FORM_TEXTS.submit })).not.toBeInTheDocument();
  });

  it('says an archived group is no longer offered', async () => {
    open(undefined, '/new-order/archived');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Order form not available${OPTION_GROUP_ARCHIVED_MESSAGE}`,
    );
    expect(screen.queryByRole('checkbox', { name: /OPTION 1/ })).not.toBeInTheDocument();
  });

  it('lists all nine Required messages and sends nothing when the form is empty', async () => {
    const calls = open();
    await screen.findByRole('checkbox', { name: /OPTION 1/ });
    fireEvent.click(submitButton());
    const box = within(await screen.findByTestId('order-form-messages'));
    for (const [, message] of REQUIRED_ORDER_FIELDS) expect(box.getByText(message)).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(0);
  });

  it("sends the form with the 'all' flags and locks it with both thank-you sentences", async () => {
    const calls = open();
    await screen.findByRole('checkbox', { name: /OPTION 1/ });
    fill();
    fireEvent.click(screen.getByRole('radio', { name: /Send all announcements automatically/ }));
    fireEvent.click(submitButton());
    expect(await screen.findByRole('button', { name: ORDER_FORM_TEXTS.submitted })).toBeDisabled();
    expect(screen.getByText(ORDER_FORM_TEXTS.thanks)).toBeInTheDocument();
    expect(screen.getByText(ORDER_FORM_TEXTS.provisioning)).toBeInTheDocument();
    const [post] = posts(calls);
    expect(post?.body).toMatchObject({
      companyName: 'companyName value',
      address: 'address value',
      option: OPTIONS[0]?.id,
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: true,
      emailMarketing: null,
    });
    for (const label of Object.values(LABELS))
      expect(screen.getByRole('textbox', { name: label })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /OPTION 1/ })).toBeDisabled();
  });

  it("sets only autoSendAnnouncementEmail for 'price_sensitive_only', and shows the server's messages", async () => {
    const calls = open(() => errorResponse(429, 'Too many orders: try again in 60 seconds'));
    await screen.findByRole('checkbox', { name: /OPTION 1/ });
    fill();
    fireEvent.click(screen.getByRole('radio', { name: /Send price-sensitive announcements automatically/ }));
    fireEvent.click(submitButton());
    expect(await screen.findByText('Too many orders: try again in 60 seconds')).toBeInTheDocument();
    await waitFor(() => expect(submitButton()).toHaveTextContent(ORDER_FORM_TEXTS.submit));
    expect(posts(calls)[0]?.body).toMatchObject({
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: false,
    });
    expect(screen.getByRole('textbox', { name: 'Company Name' })).toBeEnabled();
  });

  it('asks for the suggestions of one address in one session: the same token until a suggestion is chosen', async () => {
    const calls = open(undefined, '/new-order', (call) =>
      jsonResponse({
        available: true,
        suggestions: [
          { placeId: 'p1', text: `${call.params.get('q')} Street, Melbourne VIC 3000, Australia` },
        ],
      }),
    );
    const field = await screen.findByRole('textbox', { name: 'Billing Address' });
    const asked = (q: string) =>
      waitFor(() => {
        const call = calls.find(
          (c) => c.path === routes.stocks.addressSuggestions.path && c.params.get('q') === q,
        );
        expect(call).toBeDefined();
        return call!.params.get('sessionToken');
      });
    fireEvent.change(field, { target: { value: '120 Col' } });
    const first = await asked('120 Col');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    fireEvent.change(field, { target: { value: '120 Collins' } });
    expect(await asked('120 Collins')).toBe(first);
    fireEvent.click(
      await screen.findByRole('option', { name: '120 Collins Street, Melbourne VIC 3000, Australia' }),
    );
    const next = await asked('120 Collins Street, Melbourne VIC 3000, Australia');
    expect(next).toMatch(/^[0-9a-f-]{36}$/);
    expect(next).not.toBe(first);
  });
  it("falls back to a plain address field with the server's note once the suggestions' budget is spent", async () => {
    let lookups = 0;
    const calls = open(undefined, '/new-order', (call) => {
      lookups += 1;
      return lookups === 1
        ? jsonResponse({
            available: true,
            suggestions: [
              { placeId: 'p1', text: `${call.params.get('q')} Street, Perth WA 6000, Australia` },
            ],
          })
        : jsonResponse({ available: false, suggestions: [], message: ADDRESS_SUGGESTIONS_PAUSED_MESSAGE });
    });
    const field = await screen.findByRole('textbox', { name: 'Billing Address' });
    fireEvent.change(field, { target: { value: '190 St' } });
    await screen.findByRole('option', { name: '190 St Street, Perth WA 6000, Australia' });
    fireEvent.change(field, { target: { value: '190 St Georges' } });
    expect(await screen.findByText(ADDRESS_SUGGESTIONS_PAUSED_MESSAGE)).toBeInTheDocument();
    // A plain field now: what is typed is kept, and no more lookups are asked for.
    const plain = screen.getByRole('textbox', { name: 'Billing Address' });
    expect(plain).not.toHaveAttribute('data-testid', 'address-autocomplete');
    expect(plain).toHaveValue('190 St Georges');
    fireEvent.change(plain, { target: { value: '190 St Georges Terrace, Perth WA 6000' } });
    expect(plain).toHaveValue('190 St Georges Terrace, Perth WA 6000');
    expect(calls.filter((c) => c.path === routes.stocks.addressSuggestions.path)).toHaveLength(2);
  });

  it('falls back to a plain address field when the lookups of this address are refused (429)', async () => {
    open(undefined, '/new-order', () =>
      errorResponse(429, 'Too many address lookups: try again in 40 seconds'),
    );
    const field = await screen.findByRole('textbox', { name: 'Billing Address' });
    fireEvent.change(field, { target: { value: '190 St' } });
    expect(await screen.findByText(ADDRESS_SUGGESTIONS_PAUSED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Billing Address' })).toHaveValue('190 St');
  });
  it('fetches a form token when it is shown and sends it with the order; after a refusal, a new one', async () => {
    let answers = 0;
    const calls = open(() =>
      ++answers === 1
        ? errorResponse(400, ORDER_FORM_TOKEN_MESSAGE)
        : jsonResponse({ success: true, id: '33333333-3333-4333-8333-333333333333' }),
    );
    await screen.findByRole('checkbox', { name: /OPTION 1/ });
    await waitFor(() =>
      expect(calls.filter((c) => c.path === routes.stocks.orderFormToken.path)).toHaveLength(1),
    );
    fill();
    fireEvent.click(submitButton());
    expect(await screen.findByText(ORDER_FORM_TOKEN_MESSAGE)).toBeInTheDocument();
    expect(posts(calls)[0]?.body).toMatchObject({ formToken: 'form-token-1' });
    await waitFor(() =>
      expect(calls.filter((c) => c.path === routes.stocks.orderFormToken.path)).toHaveLength(2),
    );
    await waitFor(() => expect(submitButton()).toHaveTextContent(ORDER_FORM_TEXTS.submit));
    fireEvent.click(submitButton());
    await screen.findByRole('button', { name: ORDER_FORM_TEXTS.submitted });
    expect(posts(calls)[1]?.body).toMatchObject({ formToken: 'form-token-2' });
  });

  it('carries a honeypot field people never see: sent empty, out of reach of the keyboard and screen readers', async () => {
    const calls = open();
    await screen.findByRole('checkbox', { name: /OPTION 1/ });
    expect(screen.queryByRole('textbox', { name: 'Fax' })).not.toBeInTheDocument();
    const honeypot = document.querySelector<HTMLInputElement>('input[name="fax"]');
    expect(honeypot).not.toBeNull();
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot?.closest('[aria-hidden="true"]')).not.toBeNull();
    fill();
    fireEvent.click(submitButton());
    await screen.findByRole('button', { name: ORDER_FORM_TEXTS.submitted });
    expect(posts(calls)[0]?.body).toMatchObject({ fax: '' });
  });
});
