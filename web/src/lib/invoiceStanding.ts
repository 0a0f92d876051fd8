import type { InvoiceStanding } from '@irp/proto';

/**
 * How every screen shows an invoice's standing (spec section 2: the staff and client dashboards' Invoice
 * cells, the Invoices tab's list). The figures come from proto's invoiceStanding, which the invoicing
 * service applies for the staff screens and the client dashboard applies to its stock's invoice.
 */
export interface InvoiceStandingView {
  status: 'Paid' | 'Unpaid';
  /**
   * '{n} days overdue' for every unpaid invoice, '0 days overdue' included: the client dashboard's spec
   * text follows 'Unpaid - ' with it, and the count says how far from the 90 days the invoice is. Null once
   * paid.
   */
  overdueText: string | null;
  /** Unpaid for more than 90 days (spec section 4): the days show in red, classed 'overdue'. */
  overdue: boolean;
}

export function invoiceStandingView(invoice: InvoiceStanding & { unpaid: boolean }): InvoiceStandingView {
  return {
    status: invoice.unpaid ? 'Unpaid' : 'Paid',
    overdueText: invoice.unpaid ? `${invoice.daysLate} days overdue` : null,
    overdue: invoice.unpaid && invoice.overdue,
  };
}
