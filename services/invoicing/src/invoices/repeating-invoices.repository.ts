import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RepeatingInvoiceRecord } from './accounting-record-rules';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { cents, dayText, sameReference } from './invoicing-sql';

/** A stock's repeating invoice: the record with the stock's id. */
export type StockRepeatingInvoice = RepeatingInvoiceRecord & { stockId: StockProjectionEntity['id'] };

/** The columns of a repeating invoice row `r` as a RepeatingInvoiceRecord. */
const RECORD = `r.id, r.reference, r.contact_id AS "contactId", r.contact_name AS "contactName", r.status,
  ${cents('r.subtotal_cents')} AS "subtotalCents", ${cents('r.total_cents')} AS "totalCents", r.period, r.unit,
  ${dayText('r.next_scheduled_date')} AS "nextScheduledDate", r.description`;

/** The repeating invoice of each stock: the one chosen on its Invoices tab, else its reference's running one. */
const STOCK_REPEATING = `
  SELECT s.id AS "stockId", ${RECORD}
    FROM invoicing.stocks s
    LEFT JOIN invoicing.stock_billing b ON b.stock_id = s.id
    JOIN LATERAL (
      SELECT r.* FROM invoicing.repeating_invoices r
       WHERE (b.repeating_invoice_id IS NOT NULL AND r.id = b.repeating_invoice_id)
          OR (b.repeating_invoice_id IS NULL AND r.status = 'AUTHORISED' AND btrim(s.accounting_reference) <> ''
              AND ${sameReference('r.reference', 's.accounting_reference')})
       ORDER BY r.next_scheduled_date DESC NULLS LAST, r.id LIMIT 1
    ) r ON true`;

/** The accounting system's repeating invoices as last read, and which stock each belongs to. */
@Injectable()
export class RepeatingInvoicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Repeating invoices as read; with `complete`, those the system no longer lists are removed. */
  async saveRepeatingInvoices(records: RepeatingInvoiceRecord[], complete: boolean, tx?: Tx): Promise<void> {
    const run = async (m: Tx) => {
      if (records.length)
        await m.query(
          `INSERT INTO invoicing.repeating_invoices (id, reference, contact_id, contact_name, status, subtotal_cents,
                  total_cents, period, unit, next_scheduled_date, description, synced_at)
           SELECT x.id, x.reference, x."contactId", x."contactName", x.status, x."subtotalCents", x."totalCents",
                  x.period, x.unit, x."nextScheduledDate"::date, x.description, now()
             FROM jsonb_to_recordset($1::jsonb) AS x(id text, reference text, "contactId" text, "contactName" text,
                  status text, "subtotalCents" bigint, "totalCents" bigint, period int, unit text,
                  "nextScheduledDate" text, description text)
           ON CONFLICT (id) DO UPDATE SET reference = EXCLUDED.reference, contact_id = EXCLUDED.contact_id,
                  contact_name = EXCLUDED.contact_name, status = EXCLUDED.status,
                  subtotal_cents = EXCLUDED.subtotal_cents, total_cents = EXCLUDED.total_cents,
                  period = EXCLUDED.period, unit = EXCLUDED.unit,
                  next_scheduled_date = EXCLUDED.next_scheduled_date, description = EXCLUDED.description,
                  synced_at = now()`,
          [JSON.stringify(records)],
        );
      if (complete)
        await m.query(`DELETE FROM invoicing.repeating_invoices WHERE NOT (id = ANY($1::text[]))`, [
          records.map((r) => r.id),
        ]);
    };
    if (tx) return run(tx);
    await this.dataSource.transaction(run);
  }

  repeatingOfStocks(stockIds: string[]): Promise<StockRepeatingInvoice[]> {
    return this.dataSource.query(`${STOCK_REPEATING} WHERE s.id = ANY($1::uuid[])`, [stockIds]);
  }

  /** Repeating invoices no stock has (by reference or by choice), deleted ones aside. */
  unassignedRepeating(): Promise<RepeatingInvoiceRecord[]> {
    return this.dataSource.query(
      `SELECT ${RECORD} FROM invoicing.repeating_invoices r
        WHERE r.status <> 'DELETED'
          AND NOT EXISTS (SELECT 1 FROM invoicing.stock_billing b WHERE b.repeating_invoice_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM invoicing.stocks s WHERE btrim(s.accounting_reference) <> ''
                             AND btrim(r.reference) <> '' AND ${sameReference('s.accounting_reference', 'r.reference')})
        ORDER BY r.reference, r.id`,
    );
  }

  /** The repeating invoices a stock's selector offers: its reference's, its chosen one, the unassigned. */
  repeatingOptions(stockId: string): Promise<RepeatingInvoiceRecord[]> {
    return this.dataSource.query(
      `SELECT ${RECORD} FROM invoicing.repeating_invoices r, invoicing.stocks s
         LEFT JOIN invoicing.stock_billing b ON b.stock_id = s.id
        WHERE s.id = $1 AND r.status <> 'DELETED' AND (
              r.id = b.repeating_invoice_id
           OR (btrim(s.accounting_reference) <> '' AND ${sameReference('r.reference', 's.accounting_reference')})
           OR (NOT EXISTS (SELECT 1 FROM invoicing.stock_billing o WHERE o.repeating_invoice_id = r.id)
               AND NOT EXISTS (SELECT 1 FROM invoicing.stocks o WHERE btrim(o.accounting_reference) <> ''
                                  AND btrim(r.reference) <> '' AND ${sameReference('o.accounting_reference', 'r.reference')})))
        ORDER BY r.reference, r.id`,
      [stockId],
    );
  }

  async repeatingById(id: string): Promise<RepeatingInvoiceRecord | null> {
    const rows: RepeatingInvoiceRecord[] = await this.dataSource.query(
      `SELECT ${RECORD} FROM invoicing.repeating_invoices r WHERE r.id = $1`,
      [id.toLowerCase()],
    );
    return rows[0] ?? null;
  }
}
