import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvoiceRecord } from './accounting-record-rules';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AssignmentEntity } from './assignment.entity';
import type { InvoiceEntity } from './invoice.entity';
import { cents, dayText, sameReference } from './invoicing-sql';

/** Statuses of invoices that were sent (a draft is not yet one; voided and deleted ones never count). */
export const LIVE_STATUSES = ['SUBMITTED', 'AUTHORISED', 'PAID'];

/** An invoice as the reads return it: its row but when it changed and was read, which no route shows. */
export type StoredInvoice = Omit<InvoiceEntity, 'updatedUtc' | 'syncedAt'>;

/**
 * A live invoice with the stock it belongs to (by reference, else by assignment) and whether staff set it
 * aside; `assignedTicker` is the stock it was given by hand (ticker:exchange), null when unset or matched
 * by reference.
 */
export type MatchedInvoice = StoredInvoice &
  Pick<AssignmentEntity, 'stockId' | 'ignored'> & {
    assignedTicker: StockProjectionEntity['combinedTicker'] | null;
  };

/**
 * Each live invoice with its stock: the stock whose accounting reference equals the invoice's Reference
 * (case and surrounding blanks aside), else the stock staff assigned it to; `ignored` when staff set it
 * aside and no reference matches. The one place the matching rule is written.
 */
const MATCHED = `
  SELECT i.*, COALESCE(by_reference.id, a.stock_id) AS stock_id,
         (by_reference.id IS NULL AND COALESCE(a.ignored, false)) AS ignored,
         CASE WHEN by_reference.id IS NULL THEN assigned.combined_ticker END AS assigned_ticker
    FROM invoicing.invoices i
    LEFT JOIN LATERAL (
      SELECT s.id FROM invoicing.stocks s
       WHERE btrim(i.reference) <> '' AND btrim(s.accounting_reference) <> ''
         AND ${sameReference('s.accounting_reference', 'i.reference')}
       ORDER BY s.archived, s.combined_ticker LIMIT 1
    ) by_reference ON true
    LEFT JOIN invoicing.assignments a ON a.invoice_id = i.invoice_id
    LEFT JOIN invoicing.stocks assigned ON assigned.id = a.stock_id
   WHERE i.status = ANY('{${LIVE_STATUSES.join(',')}}'::text[])`;

/** The accounting page's order of invoices (m: MATCHED): oldest first, an invoice id apart from its number. */
const OLDEST_FIRST = 'm.date, m.invoice_number, m.invoice_id';

/** A row `m` of MATCHED as a MatchedInvoice. */
const MATCHED_INVOICE = `m.invoice_id AS "invoiceId", m.invoice_number AS "invoiceNumber", m.status, m.reference,
  m.contact_id AS "contactId", m.contact_name AS "contactName", m.repeating_invoice_id AS "repeatingInvoiceId",
  ${dayText('m.date')} AS date, ${dayText('m.due_date')} AS "dueDate", ${cents('m.total_cents')} AS "totalCents",
  ${cents('m.amount_due_cents')} AS "amountDueCents", m.stock_id AS "stockId", m.ignored,
  m.assigned_ticker AS "assignedTicker"`;

/** The accounting system's invoices as last read, and which stock each belongs to. Dates are the API's days. */
@Injectable()
export class InvoicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One page of invoices: inserted, or updated when not older than the stored one. */
  async upsertInvoices(records: InvoiceRecord[]): Promise<void> {
    if (!records.length) return;
    await this.dataSource.query(
      `INSERT INTO invoicing.invoices (invoice_id, invoice_number, status, reference, contact_id, contact_name,
              repeating_invoice_id, date, due_date, total_cents, amount_due_cents, updated_utc, synced_at)
       SELECT x."invoiceId", x."invoiceNumber", x.status, x.reference, x."contactId", x."contactName",
              x."repeatingInvoiceId", x.date::date, x."dueDate"::date, x."totalCents", x."amountDueCents",
              x."updatedUtc"::timestamptz, now()
         FROM jsonb_to_recordset($1::jsonb) AS x("invoiceId" text, "invoiceNumber" text, status text,
              reference text, "contactId" text, "contactName" text, "repeatingInvoiceId" text, date text,
              "dueDate" text, "totalCents" bigint, "amountDueCents" bigint, "updatedUtc" text)
       ON CONFLICT (invoice_id) DO UPDATE SET
              invoice_number = EXCLUDED.invoice_number, status = EXCLUDED.status, reference = EXCLUDED.reference,
              contact_id = EXCLUDED.contact_id, contact_name = EXCLUDED.contact_name,
              repeating_invoice_id = EXCLUDED.repeating_invoice_id, date = EXCLUDED.date,
              due_date = EXCLUDED.due_date, total_cents = EXCLUDED.total_cents,
              amount_due_cents = EXCLUDED.amount_due_cents, updated_utc = EXCLUDED.updated_utc, synced_at = now()
        WHERE invoicing.invoices.updated_utc <= EXCLUDED.updated_utc`,
      [JSON.stringify(records)],
    );
  }

  /** The newest invoice of each stock dated on or before `onOrBefore`. */
  latestInvoices(stockIds: string[], onOrBefore: string): Promise<MatchedInvoice[]> {
    return this.dataSource.query(
      `SELECT DISTINCT ON (m.stock_id) ${MATCHED_INVOICE} FROM (${MATCHED}) m
        WHERE m.stock_id = ANY($1::uuid[]) AND m.date <= $2::date
        ORDER BY m.stock_id, m.date DESC, m.invoice_number DESC`,
      [stockIds, onOrBefore],
    );
  }

  invoicesOfStock(stockId: string): Promise<MatchedInvoice[]> {
    return this.dataSource.query(
      `SELECT ${MATCHED_INVOICE} FROM (${MATCHED}) m WHERE m.stock_id = $1
        ORDER BY m.date DESC, m.invoice_number DESC`,
      [stockId],
    );
  }

  /**
   * A page of the live invoices no stock has, not ignored (`ignored` false) or set aside (true), oldest first:
   * at most `limit`, those after the invoice `after` when given (a keyset read: the invoices walked by date
   * from the cursor, so a page stops matching at its end). The cursor may have been assigned since: the page
   * continues after where it stood. Null when `after` names no stored invoice. The ignored are first looked
   * up among the assignments (a few among thousands of invoices: 3,000 ignored of 30,000 invoices were 6 s
   * when matched one invoice at a time, 0.1 s this way).
   */
  async withoutStock(
    ignored: boolean,
    { limit, after }: { limit: number; after?: string },
  ): Promise<MatchedInvoice[] | null> {
    const page = (keyset: string, params: unknown[]) =>
      this.dataSource.query(
        `SELECT ${MATCHED_INVOICE} FROM (${MATCHED}) m WHERE m.stock_id IS NULL AND m.ignored = $1 ${keyset}
          ${ignored ? 'AND m.invoice_id IN (SELECT invoice_id FROM invoicing.assignments WHERE ignored)' : ''}
          ORDER BY ${OLDEST_FIRST} LIMIT $2`,
        [ignored, limit, ...params],
      );
    if (after === undefined) return page('', []);
    const [cursor] = await this.dataSource.query(
      `SELECT date::text AS day, invoice_number, invoice_id FROM invoicing.invoices WHERE invoice_id = $1`,
      [after.toLowerCase()],
    );
    if (!cursor) return null;
    return page(`AND (m.date, m.invoice_number, m.invoice_id) > ($3::date, $4, $5)`, [
      cursor.day,
      cursor.invoice_number,
      cursor.invoice_id,
    ]);
  }

  /** Which of these invoice ids are stored (lower-cased). */
  async knownInvoiceIds(ids: string[], tx?: Tx): Promise<Set<string>> {
    const rows: Array<Pick<InvoiceEntity, 'invoiceId'>> = await (tx ?? this.dataSource.manager).query(
      `SELECT invoice_id AS "invoiceId" FROM invoicing.invoices WHERE invoice_id = ANY($1::text[])`,
      [ids.map((id) => id.toLowerCase())],
    );
    return new Set(rows.map((r) => r.invoiceId));
  }
}
