import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, sessionUser, storeWith } from '@/test/render';
import { NOTES, REFERERS, STOCK, VERSIONS } from '../test/fixtures';
import { serveApi, routeKey } from '@/test/fakeApi';
import { StockNotesTab } from './StockNotesTab';
import { routes } from '@/api/routes';

const admin = sessionUser('admin', { Admin: true });

describe('Notes tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function open(referers: unknown = REFERERS) {
    let notes = [...NOTES];
    const calls = serveApi(fetchMock, {
      [routeKey(routes.stocks.notes)]: () => jsonResponse(notes),
      [routeKey(routes.stocks.saveNote)]: (call) => {
        const note = {
          id: '5c1e0a57-0000-4000-8000-000000000001',
          date: '2025-06-01T04:05:00.000Z',
          user: 'admin',
          details: (call.body as { details: string }).details,
        };
        notes = [note, ...notes];
        return jsonResponse({ success: true, note });
      },
      [routeKey(routes.stocks.stockReferers)]: () => jsonResponse(referers),
      [routeKey(routes.stocks.versionHistory)]: () => jsonResponse(VERSIONS),
    });
    renderWithProviders(<StockNotesTab combinedTicker={STOCK.combinedTicker} />, storeWith(admin));
    return calls;
  }

  it('lists the notes with date and user, asking by combinedTicker', async () => {
    const calls = open();
    const list = await screen.findByRole('list', { name: 'Notes' });
    expect(within(list).getByText('22 Mar 2025 8:50 AM · admin')).toBeInTheDocument();
    expect(within(list).getByText('Called the company secretary')).toBeInTheDocument();
    expect(calls.find((c) => c.path === routes.stocks.notes.path)?.params.get('ticker')).toBe('BHP:ASX');
  });

  it('adds a note and shows it at the top', async () => {
    const calls = open();
    await screen.findByRole('list', { name: 'Notes' });
    expect(screen.getByRole('button', { name: 'Add Note' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('New note'), { target: { value: 'Sent the renewal' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Note' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Sent the renewal'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      ticker: 'BHP:ASX',
      details: 'Sent the renewal',
    });
    expect(screen.getByLabelText('New note')).toHaveValue('');
  });

  it('shows the referrers table', async () => {
    open();
    const table = await screen.findByRole('table', { name: 'Referrers' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Referrer', 'Count', 'First', 'Last']);
    await within(table).findByText('https://www.bhp.example/investors');
    expect(within(table).getByText('42')).toBeInTheDocument();
    expect(within(table).getByText('1 Jan 2025 11:00 AM')).toBeInTheDocument();
  });

  it('shows each version with when, who, and the old and new values', async () => {
    open();
    const history = await screen.findByRole('list', { name: 'Version history' });
    expect(within(history).getByText('1 Jun 2025 2:05 PM · admin')).toBeInTheDocument();
    const table = within(history).getByRole('table', { name: 'Version 2' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.slice(1)).toEqual([
      ['companyName', 'BHP Billiton', 'BHP Group'],
      ['apiKey', 'none', 'key-1'],
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', 'Old value', 'New value']);
  });
});
