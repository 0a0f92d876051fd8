import {
  ErrorCode,
  INVALID_TICKER_MESSAGE,
  isValidTicker,
  RequestOf,
  serviceOrderAlreadyCreatedMessage,
  serviceOrderNotFoundMessage,
  Topics,
} from '@irp/proto';
import { AppError, createLogger, Outbox } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { SaveStock } from '../stocks/save-stock';
import { requireAdmin } from '../stocks/stock-rules';
import { StocksRepository } from '../stocks/stocks.repository';
import { ServiceOrdersRepository } from './service-orders.repository';
import { stockFieldsOfOrder } from './service-order-rules';

const log = createLogger('service-orders');

type CreateRequest = RequestOf<typeof Topics.StocksCreateFromServiceOrder>;

/**
 * Staff turn a service order into a stock (spec section 2, Service Orders): the stock is created through
 * the stocks rules (ticker, duplicates, emails) with the order's settings, and the order is marked created
 * in the same transaction, so an order makes one stock at most and a refused create changes nothing. The
 * same transaction publishes `service-order.stock-created`: the email-marketing service then applies the
 * order's email-marketing settings to the stock.
 */
@Injectable()
export class CreateStockFromOrder {
  constructor(
    private readonly orders: ServiceOrdersRepository,
    private readonly stocks: StocksRepository,
    private readonly saving: SaveStock,
    private readonly outbox: Outbox,
  ) {}

  async create(req: CreateRequest): Promise<{ stockId: string; combinedTicker: string }> {
    requireAdmin(req.actor, 'create a stock from a service order');
    const order = await this.orders.find(req.serviceOrderId);
    if (!order) throw new AppError(ErrorCode.NotFound, serviceOrderNotFoundMessage(req.serviceOrderId));
    if (order.stockId) throw await this.alreadyCreated(order.stockId);
    if (!isValidTicker(req.ticker)) throw new AppError(ErrorCode.BadRequest, INVALID_TICKER_MESSAGE);
    const now = new Date();
    const stock = await this.saving.create(
      req.actor,
      stockFieldsOfOrder(order, req.ticker, req.reference.trim()),
      {
        now,
        within: async (tx, created) => {
          // Locked: of two staff creating the same order at once, the second is refused here.
          const locked = await this.orders.find(order.id, { tx, lock: true });
          if (locked?.stockId) throw await this.alreadyCreated(locked.stockId);
          await this.orders.markCreated(tx, order.id, {
            stockId: created.id,
            ticker: created.ticker,
            reference: created.accountingReference,
            at: now,
          });
          // Whoever acts on the new stock hears of it with the stock (email-marketing applies the order's
          // settings): the event names no secret, the settings are asked for.
          await this.outbox.add(tx, Topics.ServiceOrderStockCreated, order.id, {
            serviceOrderId: order.id,
            stockId: created.id,
            combinedTicker: created.combinedTicker,
            emailMarketing: order.emailMarketing !== null,
            by: req.actor.username,
          });
        },
      },
    );
    log.info(
      { serviceOrderId: order.id, stock: stock.combinedTicker, by: req.actor.username },
      'stock created from service order',
    );
    return { stockId: stock.id, combinedTicker: stock.combinedTicker };
  }

  private async alreadyCreated(stockId: string): Promise<AppError> {
    const stock = await this.stocks.find({ id: stockId });
    return new AppError(
      ErrorCode.Conflict,
      serviceOrderAlreadyCreatedMessage(stock ? `${stock.ticker}:${stock.exchange}` : stockId),
    );
  }
}
