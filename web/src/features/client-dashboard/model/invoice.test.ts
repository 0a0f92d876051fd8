import type { ClientStockDto } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import { clientInvoiceView, showsInvoiceColumn } from './invoice';
import { clientStockDto } from '@/test/fixtures';
import { routes } from '@/api/routes';

const NOW = new Date('2024-06-01T00:00:00Z');

const stock = (overrides: Partial<ClientStockDto> = {}) =>
  clientStockDto('ABC', {
    id: 's-1',
    apiKey: 'key',
    invoiceId: 'inv-1',
    invoiceTotal: 1980,
    invoiceStatus: 'AUTHORISED',
    invoiceDate: '2024-01-05T02:00:00.000Z',
    invoiceNumber: 'INV-0042',
    ...overrides,
  });

describe('the client Invoice cell', () => {
  it('shows the total in dollars and the date like 05Jan24', () => {
    expect(clientInvoiceView(stock(), NOW)).toMatchObject({
      number: 'INV-0042',
      total: '$1,980.00',
      date: '05Jan24',
    });
  });

  it('links the number to the invoice download with ticker and invoiceId', () => {
    expect(clientInvoiceView(stock(), NOW)?.href).toBe(
      `${routes.invoicing.invoiceDownload.path}?ticker=ABC%3AASX&invoiceId=inv-1`,
    );
    expect(clientInvoiceView(stock({ invoiceId: null }), NOW)?.href).toBeNull();
  });

  it('flags an unpaid invoice older than 90 days as overdue', () => {
    // 5 Jan to 1 Jun 2024 = 147 days.
    expect(clientInvoiceView(stock(), NOW)).toMatchObject({
      status: 'Unpaid',
      overdueText: '147 days overdue',
      overdue: true,
    });
  });

  it('does not flag an unpaid invoice of exactly 90 days', () => {
    const date = new Date(NOW.getTime() - 90 * 86_400_000).toISOString();
    expect(clientInvoiceView(stock({ invoiceDate: date }), NOW)).toMatchObject({
      overdueText: '90 days overdue',
      overdue: false,
    });
    const older = new Date(NOW.getTime() - 91 * 86_400_000).toISOString();
    expect(clientInvoiceView(stock({ invoiceDate: older }), NOW)?.overdue).toBe(true);
  });

  it('shows Paid without days for a paid invoice, however old', () => {
    expect(clientInvoiceView(stock({ invoiceStatus: 'PAID' }), NOW)).toMatchObject({
      status: 'Paid',
      overdueText: null,
      overdue: false,
    });
  });

  it('is empty without an invoice', () => {
    expect(clientInvoiceView(stock({ invoiceId: null, invoiceNumber: null }), NOW)).toBeNull();
  });
});

describe('the Invoice column', () => {
  it('shows only when the user holds Invoicing on any stock', () => {
    expect(showsInvoiceColumn([stock(), stock({ roles: ['ViewConfig', 'Invoicing'] })])).toBe(true);
    expect(showsInvoiceColumn([stock(), stock({ roles: ['EditAnnouncements'] })])).toBe(false);
    expect(showsInvoiceColumn([])).toBe(false);
  });
});
