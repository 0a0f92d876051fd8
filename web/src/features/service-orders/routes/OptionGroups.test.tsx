import { fireEvent, screen, within } from '@testing-library/react';
import type { ServiceOptionGroup } from '@irp/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi } from '@/test/fakeApi';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true });

const group = (over: Partial<ServiceOptionGroup>): ServiceOptionGroup => ({
  id: 'default-group',
  name: 'Standard subscription',
  isDefault: true,
  archived: false,
  options: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      groupId: 'default-group',
      name: 'Standard',
      price: 1800,
      lineItems: ['Widgets'],
      isDefault: true,
    },
  ],
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
  ...over,
});

describe('Service Orders screen: option groups', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const MINING = group({ id: 'mining', name: 'Mining 2027', isDefault: false });

  function open(groups: ServiceOptionGroup[], extra: Parameters<typeof serveApi>[1] = {}) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.serviceOrders)]: () => jsonResponse({ serviceOrders: [] }),
      [routeKey(routes.stocks.optionGroups)]: () => jsonResponse({ groups }),
      ...extra,
    });
    renderRoute('/orders', { store: storeWith(admin) });
    return calls;
  }

  it('lists each group with its order form link and option cards; the default has no archive', async () => {
    open([group({}), MINING, group({ id: 'old', name: 'Old prices', isDefault: false, archived: true })]);
    const [standard, mining, old] = (await screen.findAllByTestId('option-group')) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(standard).getByText('Default')).toBeInTheDocument();
    expect(within(standard).getByRole('link', { name: '/new-order' })).toBeInTheDocument();
    expect(
      within(standard).getByText(/OPTION 1 - \$1,800 \+ GST annual subscription: Standard/),
    ).toBeInTheDocument();
    expect(within(standard).queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
    expect(within(mining).getByRole('link', { name: '/new-order/mining' })).toBeInTheDocument();
    expect(within(mining).getByRole('button', { name: 'Make default' })).toBeInTheDocument();
    expect(within(old).getByText('Its order form is no longer offered.')).toBeInTheDocument();
    expect(within(old).getByRole('button', { name: 'Restore' })).toBeInTheDocument();
  });

  it('creates a group with two options: the rules named first, then the body sent', async () => {
    const calls = open([group({})], {
      [routeKey(routes.stocks.saveOptionGroup)]: (call) =>
        jsonResponse({ group: { ...MINING, ...(call.body as object) } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New option group' }));
    const editor = within(screen.getByTestId('option-group-editor'));
    fireEvent.click(editor.getByRole('button', { name: 'Save group' }));
    const messages = within(await screen.findByTestId('option-group-messages'));
    expect(messages.getByText('Group Name Required')).toBeInTheDocument();
    expect(messages.getByText('Option 1: Name Required')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(editor.getByRole('textbox', { name: /Group name/ }), {
      target: { value: 'Mining 2027' },
    });
    fireEvent.click(editor.getByRole('button', { name: 'Add option' }));
    const [first, second] = screen.getAllByTestId('option-editor') as [HTMLElement, HTMLElement];
    fireEvent.change(within(first).getByRole('textbox', { name: 'Name' }), {
      target: { value: 'Essentials' },
    });
    fireEvent.change(within(first).getByRole('textbox', { name: /Price/ }), { target: { value: '1200' } });
    fireEvent.change(within(first).getByRole('textbox', { name: /Line items/ }), {
      target: { value: 'Widgets\n\nEmails' },
    });
    fireEvent.change(within(second).getByRole('textbox', { name: 'Name' }), {
      target: { value: 'Complete' },
    });
    fireEvent.change(within(second).getByRole('textbox', { name: /Price/ }), { target: { value: '2600' } });
    fireEvent.click(within(second).getByRole('radio', { name: 'Default option' }));
    fireEvent.click(editor.getByRole('button', { name: 'Save group' }));
    expect(await screen.findByText('Saved Mining 2027.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Mining 2027',
      options: [
        { name: 'Essentials', price: 1200, lineItems: ['Widgets', 'Emails'], isDefault: false },
        { name: 'Complete', price: 2600, lineItems: [], isDefault: true },
      ],
    });
    expect(screen.queryByTestId('option-group-editor')).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the editor", async () => {
    open([group({})], {
      [routeKey(routes.stocks.saveOptionGroup)]: () =>
        errorResponse(
          409,
          "An option group named 'Standard subscription' already exists: choose another name",
        ),
    });
    const [card] = await screen.findAllByTestId('option-group');
    fireEvent.click(within(card!).getByRole('button', { name: 'Edit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save group' }));
    expect(
      await screen.findByText(
        "An option group named 'Standard subscription' already exists: choose another name",
      ),
    ).toBeInTheDocument();
  });

  it('archives a group only after the confirmation, and makes another the default', async () => {
    const calls = open([group({}), MINING], {
      [routeKey(routes.stocks.archiveOptionGroup)]: () =>
        jsonResponse({ group: { ...MINING, archived: true } }),
      [routeKey(routes.stocks.setDefaultOptionGroup)]: () =>
        jsonResponse({ group: { ...MINING, isDefault: true } }),
    });
    const [, mining] = (await screen.findAllByTestId('option-group')) as [HTMLElement, HTMLElement];
    fireEvent.click(within(mining).getByRole('button', { name: 'Archive' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/will say it is no longer offered/)).toBeInTheDocument();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.click(within(mining).getByRole('button', { name: 'Archive' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Archive' }));
    expect(
      await screen.findByText('Archived Mining 2027: its order form is no longer offered.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.path === routes.stocks.archiveOptionGroup.path)?.body).toEqual({
      id: 'mining',
      archived: true,
    });

    fireEvent.click(within(mining).getByRole('button', { name: 'Make default' }));
    expect(await screen.findByText(/Mining 2027 is now the default/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === routes.stocks.setDefaultOptionGroup.path)?.body).toEqual({
      id: 'mining',
    });
  });
});
