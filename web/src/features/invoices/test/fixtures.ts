import type { StockInvoiceData, UnassignedInvoice } from '../api/invoicesApi';
import type { ResponseOf } from '@/api/route';
import type { routes } from '@/api/routes';

type Invoice = StockInvoiceData['invoices'][number];
type RepeatingInvoice = StockInvoiceData['repeatingInvoices'][number];

/** An unpaid invoice of 5 Jan 2024 as GET /api/admin/invoices carries it. */
export function invoiceDto(overrides: Partial<Invoice> = {}): Invoice {
  return {
    invoiceID: 'inv-1',
    invoiceNumber: 'INV-0042',
    status: 'AUTHORISED',
    totalCents: 198000,
    amountDueCents: 198000,
    total: 1980,
    date: '2024-01-05',
    dueDate: '2024-01-12',
    reference: 'BHP-1',
    contactName: 'BHP Group',
    repeatingInvoiceID: null,
    unpaid: true,
    overdue: true,
    daysLate: 120,
    url: 'https://accounting.example/inv-1',
    assigned: false,
    ...overrides,
  };
}

export function repeatingInvoiceDto(overrides: Partial<RepeatingInvoice> = {}): RepeatingInvoice {
  return {
    id: 'r-1',
    text: 'BHP-1 BHP Group $1,980.00 yearly',
    reference: 'BHP-1',
    contactName: 'BHP Group',
    status: 'AUTHORISED',
    totalCents: 198000,
    total: 1980,
    schedule: { period: 1, unit: 'YEARLY', nextScheduledDate: '2026-07-01' },
    url: 'https://accounting.example/r-1',
    ...overrides,
  };
}

/** BHP's invoice data: two invoices, its repeating invoice r-1 and an unassigned one to choose instead. */
export function stockInvoiceData(overrides: Partial<StockInvoiceData> = {}): StockInvoiceData {
  return {
    stockId: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
    combinedTicker: 'BHP:ASX',
    repeatingInvoiceId: 'r-1',
    invoices: [
      invoiceDto(),
      invoiceDto({
        invoiceID: 'inv-2',
        invoiceNumber: 'INV-0030',
        status: 'PAID',
        date: '2023-01-05',
        unpaid: false,
        overdue: false,
        daysLate: 0,
        amountDueCents: 0,
      }),
    ],
    repeatingInvoices: [
      repeatingInvoiceDto(),
      repeatingInvoiceDto({ id: 'r-2', text: 'WES-9 Wesfarmers $990.00 yearly', url: null }),
    ],
    contactId: null,
    reference: 'BHP-1',
    defaultRepeatingAmount: 1800,
    syncedAt: '2026-11-27T00:00:00.000Z',
    ...overrides,
  };
}

type AccountingPage = ResponseOf<typeof routes.invoicing.accountingPage>;

const unassigned = (invoiceID: string, text: string): UnassignedInvoice => ({
  invoiceID,
  text,
  url: `https://accounting.example/${invoiceID}`,
  ticker: null,
});

/** The accounting page's data: two invoices no stock has, which the Invoices tab offers to assign. */
export function accountingPage(overrides: Partial<AccountingPage> = {}): AccountingPage {
  return {
    repeatingInvoices: [],
    invoices: [
      unassigned('inv-u1', 'INV-0101 Wesfarmers ref WES-9'),
      unassigned('inv-u2', 'INV-0102 Nobody no reference'),
    ],
    invoicesNext: null,
    ignored: [],
    ignoredNext: null,
    stocks: [{ ticker: 'BHP:ASX', label: 'BHP:ASX bhp.com BHP Group' }],
    syncedAt: '2026-11-27T00:00:00.000Z',
    ...overrides,
  };
}
