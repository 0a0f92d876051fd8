import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import type { AssignmentEntity } from './assignment.entity';

/** Staff's choice for one invoice: a stock, ignored, or neither (no choice). */
export type AssignmentChoice = Pick<AssignmentEntity, 'invoiceId' | 'stockId' | 'ignored'>;

/** Staff's assignments of invoices to stocks (or to the ignored list); changed inside a use case's transaction. */
@Injectable()
export class AssignmentsRepository {
  /** One choice per invoice: a stock, ignored, or none (the row removed). */
  async setAssignments(choices: AssignmentChoice[], by: string, tx: Tx): Promise<void> {
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
}
