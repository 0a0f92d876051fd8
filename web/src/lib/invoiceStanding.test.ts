import { describe, expect, it } from 'vitest';
import { invoiceStandingView } from './invoiceStanding';

describe("an invoice's standing", () => {
  it('shows the days of an unpaid invoice, flagged only once more than 90', () => {
    expect(invoiceStandingView({ unpaid: true, daysLate: 89, overdue: false })).toEqual({
      status: 'Unpaid',
      overdueText: '89 days overdue',
      overdue: false,
    });
    expect(invoiceStandingView({ unpaid: true, daysLate: 91, overdue: true })).toEqual({
      status: 'Unpaid',
      overdueText: '91 days overdue',
      overdue: true,
    });
  });

  it('shows the days of an unpaid invoice of today too (every screen, as the client dashboard did)', () => {
    expect(invoiceStandingView({ unpaid: true, daysLate: 0, overdue: false })).toEqual({
      status: 'Unpaid',
      overdueText: '0 days overdue',
      overdue: false,
    });
  });

  it('says Paid, without days and never flagged, for a paid invoice', () => {
    expect(invoiceStandingView({ unpaid: false, daysLate: 200, overdue: true })).toEqual({
      status: 'Paid',
      overdueText: null,
      overdue: false,
    });
  });
});
