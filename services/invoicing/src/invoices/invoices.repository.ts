import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvoiceRecord, RepeatingInvoiceRecord } from '../accounting/accounting-rules';

/** Statuses of invoices that were sent (a draft is not yet one; voided and deleted ones never count). */
export const LIVE_STATUSES = ['SUBMITTED', 'AUTHORISED', 'PAID'];

/** A stored invoice with the stock it belongs to (by reference, else by assignment) and whether ignored. */
export interface InvoiceRow extends InvoiceRecord {
  stockId: string | null;
  /** The stock it was given by hand (ticker:exchange), null when unset or matched by reference. */
  assignedTicker: string | null;
  ignored: boolean;
}

export interface RepeatingRow extends RepeatingInvoiceRecord {
  stockId?: string;
}

export interface StockBilling {
  repeatingInvoiceId: string | null;
  contactId: string | null;
}

export interface SyncState {
  invoicesModifiedSince: Date | null;
  syncedAt: Date | null;
  repeatingSyncedAt: Date | null;
  lastError: string | null;
}

export interface StockOption {
  id: string;
  combinedTicker: string;
  ticker: string;
  exchange: string;
  websiteUrl: string;
  companyName: string;
}

const same = (a: string, b: string) => `lower(btrim(${a})) = lower(btrim(${b}))`;

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
         AND ${same('s.accounting_reference', 'i.reference')}
       ORDER BY s.archived, s.combined_ticker LIMIT 1
    ) by_reference ON true
    LEFT JOIN invoicing.assignments a ON a.invoice_id = i.invoice_id
    LEFT JOIN invoicing.stocks assigned ON assigned.id = a.stock_id
   WHERE i.status = ANY('{${LIVE_STATUSES.join(',')}}'::text[])`;

/** The repeating invoice of each stock: the one chosen on its Invoices tab, else its reference's running one. */
const STOCK_REPEATING = `
  SELECT s.id AS stock_id, r.*
    FROM invoicing.stocks s
    LEFT JOIN invoicing.stock_billing b ON b.stock_id = s.id
    JOIN LATERAL (
      SELECT r.* FROM invoicing.repeating_invoices r
       WHERE (b.repeating_invoice_id IS NOT NULL AND r.id = b.repeating_invoice_id)
          OR (b.repeating_invoice_id IS NULL AND r.status = 'AUTHORISED' AND btrim(s.accounting_reference) <> ''
              AND ${same('r.reference', 's.accounting_reference')})
       ORDER BY r.next_scheduled_date DESC NULLS LAST, r.id LIMIT 1
    ) r ON true`;

interface RawInvoice {
  invoice_id: string;
  invoice_number: string;
  status: string;
  reference: string;
  contact_id: string;
  contact_name: string;
  repeating_invoice_id: string | null;
  date: string | Date;
  due_date: string | Date | null;
  total_cents: string;
  amount_due_cents: string;
  updated_utc: Date;
  stock_id: string | null;
  assigned_ticker: string | null;
  ignored: boolean;
}

interface RawRepeating {
  id: string;
  reference: string;
  contact_id: string;
  contact_name: string;
  status: string;
  subtotal_cents: string;
  total_cents: string;
  period: number;
  unit: string;
  next_scheduled_date: string | Date | null;
  description: string;
  stock_id?: string;
}

/** A DATE column's day: node-postgres reads it as local midnight, so its local parts are the day. */
const day = (value: string | Date | null): string | null => {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
};

const invoiceOf = (r: RawInvoice): InvoiceRow => ({
  invoiceId: r.invoice_id,
  invoiceNumber: r.invoice_number,
  status: r.status,
  reference: r.reference,
  contactId: r.contact_id,
  contactName: r.contact_name,
  repeatingInvoiceId: r.repeating_invoice_id,
  date: day(r.date)!,
  dueDate: day(r.due_date),
  totalCents: Number(r.total_cents),
  amountDueCents: Number(r.amount_due_cents),
  updatedUtc: new Date(r.updated_utc).toISOString(),
  stockId: r.stock_id,
  assignedTicker: r.assigned_ticker,
  ignored: r.ignored,
});

const repeatingOf = (r: RawRepeating): RepeatingRow => ({
  id: r.id,
  reference: r.reference,
  contactId: r.contact_id,
  contactName: r.contact_name,
  status: r.status,
  subtotalCents: Number(r.subtotal_cents),
  totalCents: Number(r.total_cents),
  period: r.period,
  unit: r.unit,
  nextScheduledDate: day(r.next_scheduled_date),
  description: r.description,
  ...(r.stock_id ? { stockId: r.stock_id } : {}),
});

/** The invoicing tables; the only place that queries them. Dates are the API's days (DATE columns). */
@Injectable()
export class InvoicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private q(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

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

  async syncState(): Promise<SyncState> {
    const rows: Array<{
      invoices_modified_since: Date | null;
      synced_at: Date | null;
      repeating_synced_at: Date | null;
      last_error: string | null;
    }> = await this.dataSource.query(`SELECT * FROM invoicing.sync_state WHERE id = 'accounting'`);
    const r = rows[0];
    return {
      invoicesModifiedSince: r?.invoices_modified_since ?? null,
      syncedAt: r?.synced_at ?? null,
      repeatingSyncedAt: r?.repeating_synced_at ?? null,
      lastError: r?.last_error ?? null,
    };
  }

  /** After a sync: the newest change seen only moves forward (two syncs at once cannot set it back). */
  async recordSync(result: { modifiedSince: Date | null; repeatingRead: boolean; error: string | null }) {
    await this.dataSource.query(
      `INSERT INTO invoicing.sync_state (id, invoices_modified_since, synced_at, repeating_synced_at, last_error)
       VALUES ('accounting', $1, CASE WHEN $3::text IS NULL THEN now() END, CASE WHEN $2 THEN now() END, $3)
       ON CONFLICT (id) DO UPDATE SET
         invoices_modified_since = GREATEST(invoicing.sync_state.invoices_modified_since, EXCLUDED.invoices_modified_since),
         synced_at = COALESCE(EXCLUDED.synced_at, invoicing.sync_state.synced_at),
         repeating_synced_at = COALESCE(EXCLUDED.repeating_synced_at, invoicing.sync_state.repeating_synced_at),
         last_error = EXCLUDED.last_error`,
      [result.modifiedSince, result.repeatingRead, result.error],
    );
  }

  /** The newest invoice of each stock dated on or before `onOrBefore`. */
  async latestInvoices(stockIds: string[], onOrBefore: string): Promise<InvoiceRow[]> {
    const rows: RawInvoice[] = await this.dataSource.query(
      `SELECT DISTINCT ON (m.stock_id) m.* FROM (${MATCHED}) m
        WHERE m.stock_id = ANY($1::uuid[]) AND m.date <= $2::date
        ORDER BY m.stock_id, m.date DESC, m.invoice_number DESC`,
      [stockIds, onOrBefore],
    );
    return rows.map(invoiceOf);
  }

  async repeatingOfStocks(stockIds: string[]): Promise<RepeatingRow[]> {
    const rows: RawRepeating[] = await this.dataSource.query(
      `${STOCK_REPEATING} WHERE s.id = ANY($1::uuid[])`,
      [stockIds],
    );
    return rows.map(repeatingOf);
  }

  async invoicesOfStock(stockId: string): Promise<InvoiceRow[]> {
    const rows: RawInvoice[] = await this.dataSource.query(
      `SELECT * FROM (${MATCHED}) m WHERE m.stock_id = $1 ORDER BY m.date DESC, m.invoice_number DESC`,
      [stockId],
    );
    return rows.map(invoiceOf);
  }

  /** Live invoices no stock has: not ignored (`ignored` false) or set aside (true); oldest first. */
  async invoicesWithoutStock(ignored: boolean): Promise<InvoiceRow[]> {
    const rows: RawInvoice[] = await this.dataSource.query(
      `SELECT * FROM (${MATCHED}) m WHERE m.stock_id IS NULL AND m.ignored = $1 ORDER BY m.date, m.invoice_number`,
      [ignored],
    );
    return rows.map(invoiceOf);
  }

  /** Repeating invoices no stock has (by reference or by choice), deleted ones aside. */
  async unassignedRepeating(): Promise<RepeatingRow[]> {
    const rows: RawRepeating[] = await this.dataSource.query(
      `SELECT r.* FROM invoicing.repeating_invoices r
        WHERE r.status <> 'DELETED'
          AND NOT EXISTS (SELECT 1 FROM invoicing.stock_billing b WHERE b.repeating_invoice_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM invoicing.stocks s WHERE btrim(s.accounting_reference) <> ''
                             AND btrim(r.reference) <> '' AND ${same('s.accounting_reference', 'r.reference')})
        ORDER BY r.reference, r.id`,
    );
    return rows.map(repeatingOf);
  }

  /** The repeating invoices a stock's selector offers: its reference's, its chosen one, the unassigned. */
  async repeatingOptions(stockId: string): Promise<RepeatingRow[]> {
    const rows: RawRepeating[] = await this.dataSource.query(
      `SELECT r.* FROM invoicing.repeating_invoices r, invoicing.stocks s
         LEFT JOIN invoicing.stock_billing b ON b.stock_id = s.id
        WHERE s.id = $1 AND r.status <> 'DELETED' AND (
              r.id = b.repeating_invoice_id
           OR (btrim(s.accounting_reference) <> '' AND ${same('r.reference', 's.accounting_reference')})
           OR (NOT EXISTS (SELECT 1 FROM invoicing.stock_billing o WHERE o.repeating_invoice_id = r.id)
               AND NOT EXISTS (SELECT 1 FROM invoicing.stocks o WHERE btrim(o.accounting_reference) <> ''
                                  AND btrim(r.reference) <> '' AND ${same('o.accounting_reference', 'r.reference')})))
        ORDER BY r.reference, r.id`,
      [stockId],
    );
    return rows.map(repeatingOf);
  }

  async repeatingById(id: string): Promise<RepeatingRow | null> {
    const rows: RawRepeating[] = await this.dataSource.query(
      `SELECT * FROM invoicing.repeating_invoices WHERE id = $1`,
      [id.toLowerCase()],
    );
    return rows[0] ? repeatingOf(rows[0]) : null;
  }

  /** Which of these invoice ids are stored (lower-cased). */
  async knownInvoiceIds(ids: string[], tx?: Tx): Promise<Set<string>> {
    const rows: Array<{ invoice_id: string }> = await this.q(tx).query(
      `SELECT invoice_id FROM invoicing.invoices WHERE invoice_id = ANY($1::text[])`,
      [ids.map((id) => id.toLowerCase())],
    );
    return new Set(rows.map((r) => r.invoice_id));
  }

  /** The stocks the accounting page's select offers: not archived, with an API key. */
  async stockOptions(): Promise<StockOption[]> {
    const rows: Array<StockOption & { combined_ticker: string; website_url: string; company_name: string }> =
      await this.dataSource.query(
        `SELECT id, combined_ticker, ticker, exchange, website_url, company_name FROM invoicing.stocks
          WHERE NOT archived AND COALESCE(api_key, '') <> '' ORDER BY combined_ticker`,
      );
    return rows.map((r) => ({
      id: r.id,
      combinedTicker: r.combined_ticker,
      ticker: r.ticker,
      exchange: r.exchange,
      websiteUrl: r.website_url,
      companyName: r.company_name,
    }));
  }

  /** Stock ids by combinedTicker (upper-cased keys) for the given ones that exist. */
  async stockIdsByTicker(combinedTickers: string[], tx?: Tx): Promise<Map<string, string>> {
    const rows: Array<{ id: string; combined_ticker: string }> = await this.q(tx).query(
      `SELECT id, combined_ticker FROM invoicing.stocks WHERE upper(combined_ticker) = ANY($1::text[])`,
      [combinedTickers.map((t) => t.toUpperCase())],
    );
    return new Map(rows.map((r) => [r.combined_ticker.toUpperCase(), r.id]));
  }

  /** One choice per invoice: a stock, ignored, or none (the row removed). */
  async setAssignments(
    choices: Array<{ invoiceId: string; stockId: string | null; ignored: boolean }>,
    by: string,
    tx: Tx,
  ): Promise<void> {
    const unset = choices.filter((c) => !c.stockId && !c.ignored).map((c) => c.invoiceId);
    const set = choices.filter((c) => c.stockId || c.ignored);
    if (unset.length)
      await tx.query(`DELETE FROM invoicing.assignments WHERE invoice_id = ANY($1::text[])`, [unset]);
    if (set.length)
      await tx.query(
        `INSERT INTO invoicing.assignments (invoice_id, stock_id, ignored, assigned_by, assigned_at)
         SELECT x."invoiceId", x."stockId", x.ignored, $2, now()
           FROM jsonb_to_recordset($1::jsonb) AS x("invoiceId" text, "stockId" uuid, ignored boolean)
         ON CONFLICT (invoice_id) DO UPDATE SET stock_id = EXCLUDED.stock_id, ignored = EXCLUDED.ignored,
                assigned_by = EXCLUDED.assigned_by, assigned_at = now()`,
        [JSON.stringify(set), by],
      );
  }

  /** The invoices assigned by hand to a stock become exactly `invoiceIds`. */
  async replaceStockAssignments(stockId: string, invoiceIds: string[], by: string, tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM invoicing.assignments WHERE stock_id = $1 AND NOT (invoice_id = ANY($2::text[]))`,
      [stockId, invoiceIds],
    );
    await this.setAssignments(
      invoiceIds.map((invoiceId) => ({ invoiceId, stockId, ignored: false })),
      by,
      tx,
    );
  }

  async billing(stockId: string): Promise<StockBilling> {
    const rows: Array<{ repeating_invoice_id: string | null; contact_id: string | null }> =
      await this.dataSource.query(
        `SELECT repeating_invoice_id, contact_id FROM invoicing.stock_billing WHERE stock_id = $1`,
        [stockId],
      );
    return {
      repeatingInvoiceId: rows[0]?.repeating_invoice_id ?? null,
      contactId: rows[0]?.contact_id ?? null,
    };
  }

  /** Sets the given billing fields of a stock (a field left undefined keeps its value). */
  async saveBilling(stockId: string, billing: Partial<StockBilling>, by: string, tx?: Tx): Promise<void> {
    await this.q(tx).query(
      `INSERT INTO invoicing.stock_billing (stock_id, repeating_invoice_id, contact_id, updated_by, updated_at)
       VALUES ($1, $2, $3, $6, now())
       ON CONFLICT (stock_id) DO UPDATE SET
         repeating_invoice_id = CASE WHEN $4 THEN EXCLUDED.repeating_invoice_id ELSE invoicing.stock_billing.repeating_invoice_id END,
         contact_id = CASE WHEN $5 THEN EXCLUDED.contact_id ELSE invoicing.stock_billing.contact_id END,
         updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [
        stockId,
        billing.repeatingInvoiceId ?? null,
        billing.contactId ?? null,
        billing.repeatingInvoiceId !== undefined,
        billing.contactId !== undefined,
        by,
      ],
    );
  }
}
