import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/api/routes';
import { errorResponse, routeKey, serveApi, type ApiCall, type Handler } from '@/test/fakeApi';
import { BHP_STOCK_ID, bhpStock } from '@/test/fixtures';
import { jsonResponse, renderRoute, sessionUser, storeWith } from '@/test/render';
import { accountingPage, invoiceDto, repeatingInvoiceDto, stockInvoiceData } from '../test/fixtures';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

const admin = sessionUser('admin', { Admin: true, InvoiceTotal: true });

const posts = (calls: ApiCall[], route: { path: string }) =>
  calls.filter((c) => c.method === 'POST' && c.path.startsWith(route.path.replace('{ticker}', '')));

describe('staff Invoices tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(handlers: Record<string, Handler> = {}) {
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.get, { combinedTicker: 'BHP:ASX' })]: () => jsonResponse(bhpStock()),
      [routeKey(routes.invoicing.invoices)]: () => jsonResponse(stockInvoiceData()),
      [routeKey(routes.invoicing.accountingPage)]: () => jsonResponse(accountingPage()),
      ...handlers,
    });
    renderRoute('/stocks/BHP:ASX/invoices', { store: storeWith(admin) });
    return calls;
  }

  const loaded = () => screen.findByTestId('invoice-list');

  it('lists the invoices: number linking to the PDF, date like 05Jan24, AUD total, Paid/Unpaid, days overdue in red', async () => {
    const calls = open();
    await loaded();
    expect(calls.find((c) => c.path === routes.invoicing.invoices.path)?.params.get('ticker')).toBe(
      'BHP:ASX',
    );
    const [first, second] = screen.getAllByTestId('invoice-row');
    expect(within(first!).getByRole('link', { name: 'INV-0042' })).toHaveAttribute(
      'href',
      `${routes.invoicing.invoiceDownload.path}?ticker=BHP%3AASX&invoiceId=inv-1`,
    );
    expect(first).toHaveTextContent('INV-004205Jan24$1,980.00Unpaid 120 days overdue');
    expect(within(first!).getByText('120 days overdue')).toHaveClass('overdue');
    expect(second).toHaveTextContent('INV-003005Jan23$1,980.00Paid');
    // Both match the stock's reference: nothing to unassign.
    expect(first).toHaveTextContent('By reference');
    expect(screen.queryByRole('button', { name: /^Unassign/ })).toBeNull();
  });

  it('selects the current repeating invoice among the options and saves a new choice with the page Save', async () => {
    const calls = open({
      [routeKey(routes.invoicing.saveInvoiceData, { ticker: 'BHP:ASX' })]: (call) =>
        jsonResponse(
          stockInvoiceData({
            repeatingInvoiceId: (call.body as { repeatingInvoiceId: string }).repeatingInvoiceId,
          }),
        ),
    });
    await loaded();
    const select = screen.getByLabelText('Repeating invoice');
    expect(select).toHaveValue('r-1');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['--None--', 'BHP-1 BHP Group $1,980.00 yearly', 'WES-9 Wesfarmers $990.00 yearly']);
    expect(screen.getByRole('link', { name: 'Next 1 Jul 2026' })).toHaveAttribute(
      'href',
      'https://accounting.example/r-1',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to Save')).toBeInTheDocument();

    fireEvent.change(select, { target: { value: 'r-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saved!' })).toBeInTheDocument();
    expect(posts(calls, routes.invoicing.saveInvoiceData).map((c) => [c.path, c.body])).toEqual([
      ['/api/admin/saveInvoiceData/BHP:ASX', { ticker: 'BHP:ASX', repeatingInvoiceId: 'r-2' }],
    ]);
    expect(screen.getByLabelText('Repeating invoice')).toHaveValue('r-2');
  });

  it('saves no repeating invoice as null', async () => {
    const calls = open({
      [routeKey(routes.invoicing.saveInvoiceData, { ticker: 'BHP:ASX' })]: () =>
        jsonResponse(stockInvoiceData({ repeatingInvoiceId: null })),
    });
    await loaded();
    fireEvent.change(screen.getByLabelText('Repeating invoice'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Saved!' });
    expect(posts(calls, routes.invoicing.saveInvoiceData)[0]?.body).toEqual({
      ticker: 'BHP:ASX',
      repeatingInvoiceId: null,
    });
  });

  it('shows a refused save in the Save failed modal', async () => {
    open({
      [routeKey(routes.invoicing.saveInvoiceData, { ticker: 'BHP:ASX' })]: () =>
        errorResponse(400, 'Unknown repeating invoice r-2'),
    });
    await loaded();
    fireEvent.change(screen.getByLabelText('Repeating invoice'), { target: { value: 'r-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('dialog', { name: 'Save failed' })).toHaveTextContent(
      'Unknown repeating invoice r-2',
    );
  });

  it('creates the contact and shows its id', async () => {
    const calls = open({
      [routeKey(routes.invoicing.createContact)]: () =>
        jsonResponse({ success: true, contactId: 'c-77', errorMessage: null }),
    });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Create Contact' }));
    expect(await screen.findByTestId('create-contact-result')).toHaveTextContent('Contact created: c-77');
    expect(posts(calls, routes.invoicing.createContact)[0]?.params.get('id')).toBe(BHP_STOCK_ID);
  });

  it("shows the accounting system's refusal of a contact", async () => {
    open({
      [routeKey(routes.invoicing.createContact)]: () =>
        jsonResponse({
          success: false,
          contactId: null,
          errorMessage: 'A contact named BHP Group already exists',
        }),
    });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Create Contact' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A contact named BHP Group already exists');
  });

  it("proposes the service order option's price and summarises the order", async () => {
    open({
      [routeKey(routes.stocks.serviceOrderOfStock)]: () =>
        jsonResponse({
          id: '7d1c1d0e-1f1a-4d4e-9a51-2f7e0b4f3c11',
          timestamp: '2026-03-02T01:00:00.000Z',
          companyName: 'BHP Group',
          ticker: 'BHP',
          reference: 'BHP-1',
          option: { name: 'Premium', price: 2400, lineItems: ['Announcements widget', 'Email alerts'] },
          authorisedBy: 'Jane Citizen',
          website: 'bhp.com',
          address: '171 Collins Street, Melbourne VIC 3000',
          contactName: 'Jane Citizen',
          contactPhone: '03 9609 3333',
          contactEmail: 'jane@bhp.example',
          abn: '49 004 028 077',
          listingDate: '',
          confirmationEmail: '',
          sendPriceSensitiveAnnouncements: true,
          sendNonPriceSensitiveAnnouncements: true,
          autoSendAnnouncementEmail: true,
          autoSendNonPriceSensitiveAnnouncements: false,
          emailMarketing: null,
          isCreated: true,
          combinedTicker: 'BHP:ASX',
        }),
    });
    await loaded();
    await waitFor(() => expect(screen.getByLabelText('Amount (AUD, excluding GST)')).toHaveValue('2400'));
    const summary = screen.getByTestId('service-order-summary');
    expect(summary).toHaveTextContent('Option: Premium: $2,400 + GST');
    expect(summary).toHaveTextContent('Authorised by: Jane Citizen');
    expect(within(summary).getByText('Email alerts')).toBeInTheDocument();
  });

  it("says 'None' for a stock made without a service order", async () => {
    open({ [routeKey(routes.stocks.serviceOrderOfStock)]: () => jsonResponse(null) });
    await loaded();
    const section = (await screen.findByRole('heading', { name: 'Service Order' })).closest('section')!;
    expect(await within(section).findByText('None')).toBeInTheDocument();
    expect(screen.getByLabelText('Amount (AUD, excluding GST)')).toHaveValue('1800');
  });

  it('creates a repeating invoice for the default 1800 excluding GST', async () => {
    const calls = open({
      [routeKey(routes.invoicing.createRepeatingInvoice)]: () =>
        jsonResponse({
          success: true,
          repeatingInvoice: repeatingInvoiceDto({
            id: 'r-9',
            text: 'BHP-1 BHP Group $1,980.00 yearly (new)',
          }),
          errorMessage: null,
        }),
    });
    await loaded();
    const amount = screen.getByLabelText('Amount (AUD, excluding GST)');
    expect(amount).toHaveValue('1800');
    expect(screen.getByText('$1,800 + GST')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create Repeating Invoice' }));
    expect(await screen.findByTestId('create-repeating-result')).toHaveTextContent(
      'Repeating invoice created: BHP-1 BHP Group $1,980.00 yearly (new)',
    );
    expect(posts(calls, routes.invoicing.createRepeatingInvoice)[0]?.body).toEqual({
      id: BHP_STOCK_ID,
      amount: 1800,
    });
  });

  it("shows 'Unable to create repeating invoice: {message}' on a refusal", async () => {
    open({
      [routeKey(routes.invoicing.createRepeatingInvoice)]: () =>
        jsonResponse({ success: false, repeatingInvoice: null, errorMessage: 'The stock has no contact' }),
    });
    await loaded();
    fireEvent.change(screen.getByLabelText('Amount (AUD, excluding GST)'), { target: { value: '2,500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Repeating Invoice' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Unable to create repeating invoice: The stock has no contact',
    );
  });

  it('refuses a non-numeric amount without sending it', async () => {
    const calls = open();
    await loaded();
    fireEvent.change(screen.getByLabelText('Amount (AUD, excluding GST)'), { target: { value: 'lots' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Repeating Invoice' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Unable to create repeating invoice: amount must be a number more than 0',
    );
    expect(posts(calls, routes.invoicing.createRepeatingInvoice)).toHaveLength(0);
  });

  it('unassigns an invoice given by hand, sending the ones it keeps, and shows progress then the result', async () => {
    const handAssigned = stockInvoiceData({
      invoices: [
        invoiceDto({ invoiceID: 'inv-7', invoiceNumber: 'INV-0077', assigned: true }),
        invoiceDto({ invoiceID: 'inv-8', invoiceNumber: 'INV-0088', assigned: true }),
        invoiceDto(),
      ],
    });
    let answer: (r: Response) => void = () => undefined;
    const calls = open({
      [routeKey(routes.invoicing.invoices)]: () => jsonResponse(handAssigned),
      [routeKey(routes.invoicing.saveInvoiceData, { ticker: 'BHP:ASX' })]: () =>
        new Promise<Response>((resolve) => (answer = resolve)),
    });
    await loaded();
    const [seven, , byReference] = screen.getAllByTestId('invoice-row');
    expect(within(byReference!).queryByRole('button')).toBeNull();
    fireEvent.click(within(seven!).getByRole('button', { name: 'Unassign INV-0077' }));
    expect(await within(seven!).findByRole('button', { name: 'Unassign INV-0077' })).toHaveTextContent(
      'Unassigning...',
    );
    expect(screen.getByRole('button', { name: 'Unassign INV-0088' })).toBeDisabled();
    await waitFor(() => expect(posts(calls, routes.invoicing.saveInvoiceData)).toHaveLength(1));
    // The repeating invoice choice is left out: it stays as it is.
    expect(posts(calls, routes.invoicing.saveInvoiceData)[0]?.body).toEqual({
      ticker: 'BHP:ASX',
      invoices: ['inv-8'],
    });
    answer(jsonResponse({ ...handAssigned, invoices: handAssigned.invoices.slice(1) }));
    expect(await screen.findByTestId('invoice-assignment-result')).toHaveTextContent('Unassigned INV-0077');
    // The rows come from the stock's invoices as the save answered them, rendered in their own update.
    await waitFor(() => expect(screen.getAllByTestId('invoice-row')).toHaveLength(2));
    // The pick list is read again: the invoice is unassigned now.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === routes.invoicing.accountingPage.path)).toHaveLength(2),
    );
  });

  it('assigns one of the unassigned invoices to the stock beside those it has by hand', async () => {
    const handAssigned = stockInvoiceData({
      invoices: [invoiceDto({ invoiceID: 'inv-7', invoiceNumber: 'INV-0077', assigned: true })],
    });
    const calls = open({
      [routeKey(routes.invoicing.invoices)]: () => jsonResponse(handAssigned),
      [routeKey(routes.invoicing.saveInvoiceData, { ticker: 'BHP:ASX' })]: () =>
        jsonResponse({
          ...handAssigned,
          invoices: [
            invoiceDto({ invoiceID: 'inv-u1', invoiceNumber: 'INV-0101', assigned: true }),
            ...handAssigned.invoices,
          ],
        }),
    });
    await loaded();
    const select = await screen.findByLabelText('Assign an unassigned invoice');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['--Choose an invoice--', 'INV-0101 Wesfarmers ref WES-9', 'INV-0102 Nobody no reference']);
    const assign = screen.getByRole('button', { name: 'Assign' });
    expect(assign).toBeDisabled();
    fireEvent.change(select, { target: { value: 'inv-u1' } });
    fireEvent.click(assign);
    expect(await screen.findByTestId('invoice-assignment-result')).toHaveTextContent(
      'Assigned INV-0101 Wesfarmers ref WES-9 to BHP:ASX',
    );
    expect(posts(calls, routes.invoicing.saveInvoiceData)[0]?.body).toEqual({
      ticker: 'BHP:ASX',
      invoices: ['inv-7', 'inv-u1'],
    });
    expect(await screen.findByRole('button', { name: 'Unassign INV-0101' })).toBeEnabled();
  });

  it('offers every unassigned invoice: the later pages after the first, as they come', async () => {
    const laterPath = routeKey(routes.invoicing.accountingInvoices, { list: 'unassigned' });
    const later = { invoiceID: 'inv-u3', text: 'INV-0103 Coral no reference', url: null, ticker: null };
    const calls = open({
      [routeKey(routes.invoicing.accountingPage)]: () =>
        jsonResponse(accountingPage({ invoicesNext: 'inv-u2' })),
      [laterPath]: () => jsonResponse({ invoices: [later], next: null }),
    });
    await loaded();
    const select = await screen.findByLabelText('Assign an unassigned invoice');
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([
        '--Choose an invoice--',
        'INV-0101 Wesfarmers ref WES-9',
        'INV-0102 Nobody no reference',
        'INV-0103 Coral no reference',
      ]),
    );
    expect(
      calls.filter((c) => `${c.method} ${c.path}` === laterPath).map((c) => c.params.get('after')),
    ).toEqual(['inv-u2']);
  });

  it('shows a refused assignment and keeps the list as it was', async () => {
    open({
      [routeKey(routes.invoicing.saveInvoiceData, { ticker: 'BHP:ASX' })]: () =>
        errorResponse(400, 'No invoice has the id inv-u1'),
    });
    await loaded();
    fireEvent.change(await screen.findByLabelText('Assign an unassigned invoice'), {
      target: { value: 'inv-u1' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Unable to assign INV-0101 Wesfarmers ref WES-9: No invoice has the id inv-u1',
    );
    expect(screen.getAllByTestId('invoice-row')).toHaveLength(2);
  });

  it('says when no invoice is left to assign', async () => {
    open({
      [routeKey(routes.invoicing.accountingPage)]: () => jsonResponse(accountingPage({ invoices: [] })),
    });
    await loaded();
    expect(await screen.findByTestId('no-unassigned-invoices')).toHaveTextContent(
      'No unassigned invoices to assign',
    );
  });

  it('shows a failed load', async () => {
    open({
      [routeKey(routes.invoicing.invoices)]: () => errorResponse(503, 'The accounting system is down'),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The accounting system is down');
  });
});
