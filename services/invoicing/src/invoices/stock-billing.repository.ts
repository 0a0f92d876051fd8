import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StockBillingEntity } from './stock-billing.entity';

/** A stock's billing choices; null where none was made. */
export type StockBilling = Pick<StockBillingEntity, 'repeatingInvoiceId' | 'contactId'>;

/** Each stock's billing choices: its repeating invoice and its accounting contact. */
@Injectable()
export class StockBillingRepository {
  constructor(private readonly dataSource: DataSource) {}

  async billing(stockId: string): Promise<StockBilling> {
    const rows: StockBilling[] = await this.dataSource.query(
      `SELECT repeating_invoice_id AS "repeatingInvoiceId", contact_id AS "contactId"
         FROM invoicing.stock_billing WHERE stock_id = $1`,
      [stockId],
    );
    return {
      repeatingInvoiceId: rows[0]?.repeatingInvoiceId ?? null,
      contactId: rows[0]?.contactId ?? null,
    };
  }

  /** Sets the given billing fields of a stock (a field left undefined keeps its value). */
  async saveBilling(stockId: string, billing: Partial<StockBilling>, by: string, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(
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
