import type { DashboardInvoiceDto } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import { invoiceCellView, repeatCellView } from './invoice';

const base: DashboardInvoiceDto = {
  invoiceId: 'inv-1',
  invoiceNumber: 'INV-0042',
  totalCents: 198000,
  date: '2024-01-05T02:00:00.000Z',
  status: 'AUTHORISED',
  unpaid: true,
  overdue: false,
  daysLate: 30,
};

describe('the staff Invoice cell', () => {
  it('shows number, amount and the invoice date like 05Jan24', () => {
    expect(invoiceCellView(base)).toMatchObject({ number: 'INV-0042', amount: '$1,980.00', date: '05Jan24' });
  });

  it('shows the days overdue of an unpaid invoice, flagged once more than 90 days old', () => {
    expect(invoiceCellView(base)).toMatchObject({
      status: 'Unpaid',
      overdueText: '30 days overdue',
      overdue: false,
    });
    expect(invoiceCellView({ ...base, daysLate: 0 })).toMatchObject({
      overdueText: '0 days overdue',
      overdue: false,
    });
    expect(invoiceCellView({ ...base, overdue: true, daysLate: 91 })).toMatchObject({
      status: 'Unpaid',
      overdueText: '91 days overdue',
      overdue: true,
    });
  });

  it('shows Paid and never overdue for a paid invoice', () => {
    expect(
      invoiceCellView({ ...base, status: 'PAID', unpaid: false, overdue: false, daysLate: 200 }),
    ).toMatchObject({
      status: 'Paid',
      overdueText: null,
      overdue: false,
    });
  });
});

describe('the Repeat cell', () => {
  it('shows the amount excluding GST as a price (AUD, no decimals, + GST), the next scheduled date and the link', () => {
    expect(
      repeatCellView({
        repeatingInvoiceId: 'r',
        amountCents: 180000,
        nextScheduledDate: '2026-07-01T00:00:00.000Z',
        url: 'https://accounting.example/r',
      }),
    ).toEqual({ amount: '$1,800 + GST', nextScheduled: '1 Jul 2026', url: 'https://accounting.example/r' });
  });
});
