import { createStockProjectionTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The invoicing tables: the stock projection, the accounting system's invoices and repeating invoices as
 * last read (money in integer cents), staff's assignments of invoices to stocks (or to the ignored list),
 * each stock's billing choices (repeating invoice, contact), and the sync's state.
 */
export class CreateInvoices1796300000000 implements MigrationInterface {
  name = 'CreateInvoices1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await createStockProjectionTable(q, 'invoicing', [
      `company_name text NOT NULL DEFAULT ''`,
      `website_url text NOT NULL DEFAULT ''`,
      'api_key text',
      `accounting_reference text NOT NULL DEFAULT ''`,
      `contact_email text NOT NULL DEFAULT ''`,
      `billing_date text NOT NULL DEFAULT ''`,
      'archived boolean NOT NULL DEFAULT false',
    ]);
    await q.query(
      `CREATE INDEX stocks_reference_idx ON invoicing.stocks (lower(btrim(accounting_reference))) WHERE btrim(accounting_reference) <> ''`,
    );
    await q.query(`
      CREATE TABLE invoicing.invoices (
        invoice_id text PRIMARY KEY,
        invoice_number text NOT NULL,
        status text NOT NULL,
        reference text NOT NULL DEFAULT '',
        contact_id text NOT NULL DEFAULT '',
        contact_name text NOT NULL DEFAULT '',
        repeating_invoice_id text,
        date date NOT NULL,
        due_date date,
        total_cents bigint NOT NULL,
        amount_due_cents bigint NOT NULL,
        updated_utc timestamptz NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX invoices_reference_idx ON invoicing.invoices (lower(btrim(reference)))`);
    await q.query(`CREATE INDEX invoices_date_idx ON invoicing.invoices (date DESC)`);
    await q.query(`
      CREATE TABLE invoicing.repeating_invoices (
        id text PRIMARY KEY,
        reference text NOT NULL DEFAULT '',
        contact_id text NOT NULL DEFAULT '',
        contact_name text NOT NULL DEFAULT '',
        status text NOT NULL,
        subtotal_cents bigint NOT NULL,
        total_cents bigint NOT NULL,
        period integer NOT NULL,
        unit text NOT NULL,
        next_scheduled_date date,
        description text NOT NULL DEFAULT '',
        synced_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE invoicing.assignments (
        invoice_id text PRIMARY KEY,
        stock_id uuid REFERENCES invoicing.stocks (id),
        ignored boolean NOT NULL DEFAULT false,
        assigned_by text NOT NULL,
        assigned_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT assignment_is_one_choice CHECK (ignored <> (stock_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX assignments_stock_idx ON invoicing.assignments (stock_id)`);
    await q.query(`
      CREATE TABLE invoicing.stock_billing (
        stock_id uuid PRIMARY KEY REFERENCES invoicing.stocks (id),
        repeating_invoice_id text,
        contact_id text,
        updated_by text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE invoicing.sync_state (
        id text PRIMARY KEY,
        invoices_modified_since timestamptz,
        synced_at timestamptz,
        repeating_synced_at timestamptz,
        last_error text
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'sync_state',
      'stock_billing',
      'assignments',
      'repeating_invoices',
      'invoices',
      'stocks',
    ])
      await q.query(`DROP TABLE invoicing.${table}`);
  }
}
