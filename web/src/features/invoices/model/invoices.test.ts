import { describe, expect, it } from 'vitest';
import { routes } from '@/api/routes';
import { invoiceRowView, nextScheduledText, parseAmount, repeatingInvoiceFailure } from './invoices';
import { invoiceDto, repeatingInvoiceDto } from '../test/fixtures';

describe('the Invoices tab rules', () => {
  it('shows an invoice with its download link, date like 05Jan24, total in AUD and standing', () => {
    const view = invoiceRowView('VOD:LSE', invoiceDto({ invoiceID: 'a-1', daysLate: 120, overdue: true }));
    expect(view).toEqual({
      id: 'a-1',
      number: 'INV-0042',
      href: `${routes.invoicing.invoiceDownload.path}?ticker=VOD%3ALSE&invoiceId=a-1`,
      date: '05Jan24',
      total: '$1,980.00',
      status: 'Unpaid',
      overdueText: '120 days overdue',
      overdue: true,
    });
  });

  it('says Paid without days for a paid invoice', () => {
    const view = invoiceRowView(
      'BHP:ASX',
      invoiceDto({ status: 'PAID', unpaid: false, overdue: false, daysLate: 0, amountDueCents: 0 }),
    );
    expect(view).toMatchObject({ status: 'Paid', overdueText: null, overdue: false });
  });

  it('shows days late in plain text until more than 90', () => {
    expect(invoiceRowView('BHP:ASX', invoiceDto({ daysLate: 89, overdue: false }))).toMatchObject({
      overdueText: '89 days overdue',
      overdue: false,
    });
  });

  it('shows the next scheduled date of a repeating invoice', () => {
    expect(nextScheduledText(repeatingInvoiceDto())).toBe('Next 1 Jul 2026');
    expect(
      nextScheduledText(
        repeatingInvoiceDto({ schedule: { period: 1, unit: 'YEARLY', nextScheduledDate: null } }),
      ),
    ).toBe('Schedule ended');
  });

  it('takes an amount in dollars and refuses anything else', () => {
    expect(parseAmount('1800')).toBe(1800);
    expect(parseAmount(' $2,500.50 ')).toBe(2500.5);
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('12a')).toBeNull();
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('0')).toBeNull();
    expect(parseAmount('-5')).toBeNull();
    expect(parseAmount('1e3')).toBeNull();
  });

  it('words a failure as spec section 8 does', () => {
    expect(repeatingInvoiceFailure('Contact not found')).toBe(
      'Unable to create repeating invoice: Contact not found',
    );
  });
});
