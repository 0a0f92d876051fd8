import {
  combinedTickerOf,
  ErrorCode,
  INVALID_TICKER_MESSAGE,
  isValidTicker,
  normaliseTicker,
  RequestOf,
  Stock,
  Topics,
} from '@irp/proto';
import { AppError, Outbox } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockReads } from './stock-reads';
import { normaliseExchange, requireAdmin, SAME_TICKER_MESSAGE } from './stock-rules';
import { StockVersioning } from './stock-versioning';

type ChangeTickerRequest = RequestOf<typeof Topics.StocksChangeTicker>;

/**
 * An admin renames a stock's ticker (docs/api/stocks.md). Same row, same id, so notes, version history
 * and referers stay with the stock; `stock.ticker-changed` tells the projections the old name.
 */
@Injectable()
export class ChangeTicker {
  constructor(
    private readonly reads: StockReads,
    private readonly versioning: StockVersioning,
    private readonly outbox: Outbox,
  ) {}

  async changeTicker(req: ChangeTickerRequest): Promise<Stock> {
    requireAdmin(req.actor, 'change a ticker');
    const now = new Date();
    return this.versioning.run(async (tx) => {
      const current = await this.reads.require(
        tx,
        { ticker: normaliseTicker(req.ticker), exchange: normaliseExchange(req.exchange) },
        true,
      );
      if (!isValidTicker(req.newTicker)) throw new AppError(ErrorCode.BadRequest, INVALID_TICKER_MESSAGE);
      const newTicker = normaliseTicker(req.newTicker);
      if (newTicker === current.ticker) throw new AppError(ErrorCode.BadRequest, SAME_TICKER_MESSAGE);
      const oldTicker = current.ticker;
      current.ticker = newTicker;
      const stock = await this.versioning.changed(
        tx,
        current,
        [{ fieldName: 'ticker', originalValue: oldTicker, newValue: newTicker }],
        req.actor,
        now,
      );
      await this.outbox.add(tx, Topics.StockTickerChanged, stock.id, {
        id: stock.id,
        exchange: stock.exchange,
        oldTicker,
        newTicker,
        oldCombinedTicker: combinedTickerOf(oldTicker, stock.exchange),
        newCombinedTicker: stock.combinedTicker,
        changedBy: req.actor.username,
        changedAt: now.toISOString(),
      });
      return stock;
    });
  }
}
