import {
  accountingDay,
  type ApiInvoice,
  type ApiRepeatingInvoice,
  parseAccountingDate,
  toCents,
} from '../accounting/accounting-rules';
import type { InvoiceEntity } from './invoice.entity';
import type { RepeatingInvoiceEntity } from './repeating-invoice.entity';

/*
 * The accounting system's invoices as this service stores them (pure): the adapter reads the API's shapes
 * (accounting/), these rules turn them into invoices' rows.
 */

/** What an invoice is stored from: its row (InvoiceEntity) but the change date as ISO text (upserted from JSON). */
export type InvoiceRecord = Omit<InvoiceEntity, 'updatedUtc' | 'syncedAt'> & { updatedUtc: string };

/** What a repeating invoice is stored from: its row (RepeatingInvoiceEntity) but when it was read. */
export type RepeatingInvoiceRecord = Omit<RepeatingInvoiceEntity, 'syncedAt'>;

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

/** A sales invoice (ACCREC) as stored; null for a bill (ACCPAY) or one without a date. */
export function invoiceRecord(api: ApiInvoice): InvoiceRecord | null {
  if (api.Type && api.Type !== 'ACCREC') return null;
  const date = accountingDay(api.Date);
  if (!date) return null;
  const updated = parseAccountingDate(api.UpdatedDateUTC);
  const repeating =
    api.RepeatingInvoiceID && api.RepeatingInvoiceID !== EMPTY_GUID ? api.RepeatingInvoiceID : null;
  return {
    invoiceId: api.InvoiceID.toLowerCase(),
    invoiceNumber: api.InvoiceNumber ?? '',
    status: api.Status.toUpperCase(),
    reference: (api.Reference ?? '').trim(),
    contactId: (api.Contact?.ContactID ?? '').toLowerCase(),
    contactName: api.Contact?.Name ?? '',
    repeatingInvoiceId: repeating?.toLowerCase() ?? null,
    date,
    dueDate: accountingDay(api.DueDate),
    totalCents: toCents(api.Total),
    amountDueCents: toCents(api.AmountDue),
    updatedUtc: new Date(updated ?? 0).toISOString(),
  };
}

export function repeatingInvoiceRecord(api: ApiRepeatingInvoice): RepeatingInvoiceRecord | null {
  if (api.Type && api.Type !== 'ACCREC') return null;
  return {
    id: api.RepeatingInvoiceID.toLowerCase(),
    reference: (api.Reference ?? '').trim(),
    contactId: (api.Contact?.ContactID ?? '').toLowerCase(),
    contactName: api.Contact?.Name ?? '',
    status: api.Status.toUpperCase(),
    subtotalCents: toCents(api.SubTotal ?? api.Total),
    totalCents: toCents(api.Total),
    period: api.Schedule?.Period ?? 1,
    unit: (api.Schedule?.Unit ?? 'MONTHLY').toUpperCase(),
    nextScheduledDate: accountingDay(api.Schedule?.NextScheduledDate),
    description: (api.LineItems ?? [])
      .map((l) => l.Description ?? '')
      .filter(Boolean)
      .join('; '),
  };
}
