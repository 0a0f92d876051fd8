import { normaliseTicker, RequestOf, Stock, Topics } from '@irp/proto';
import { Outbox } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockReads } from './stock-reads';
import { normaliseExchange, requireAdmin, toStock } from './stock-rules';
import { StockVersioning } from './stock-versioning';

type ArchiveRequest = RequestOf<typeof Topics.StocksArchive>;

/** An admin archives or unarchives a stock; `stock.archived` tells the other services. */
@Injectable()
export class ArchiveStock {
  constructor(
    private readonly reads: StockReads,
    private readonly versioning: StockVersioning,
    private readonly outbox: Outbox,
  ) {}

  /** Archives or unarchives; `archived` absent toggles. Asking for the current state changes nothing. */
  async archive(req: ArchiveRequest): Promise<Stock> {
    requireAdmin(req.actor, 'archive a stock');
    const now = new Date();
    return this.versioning.run(async (tx) => {
      const current = await this.reads.require(
        tx,
        { ticker: normaliseTicker(req.ticker), exchange: normaliseExchange(req.exchange) },
        true,
      );
      const archived = req.archived ?? !current.archived;
      if (archived === current.archived) return toStock(current);
      current.archived = archived;
      const stock = await this.versioning.changed(
        tx,
        current,
        [{ fieldName: 'archived', originalValue: String(!archived), newValue: String(archived) }],
        req.actor,
        now,
      );
      await this.outbox.add(tx, Topics.StockArchived, stock.id, {
        id: stock.id,
        combinedTicker: stock.combinedTicker,
        archived,
        changedBy: req.actor.username,
        changedAt: now.toISOString(),
      });
      return stock;
    });
  }
}
