import {
  ErrorCode,
  OrderEmailMarketing,
  SEALED_PREFIX,
  ServiceOrder,
  parseCombinedTicker,
  serviceOrderNotFoundMessage,
} from '@irp/proto';
import { AppError, createLogger } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StocksRepository } from '../stocks/stocks.repository';
import { requireAdmin } from '../stocks/stock-rules';
import { ServiceOrdersRepository } from './service-orders.repository';
import { toServiceOrder, withoutSecrets } from './service-order-rules';
import type { Actor } from '@irp/proto';

const log = createLogger('service-orders');

/** Staff reads of the orders: the Orders list and the Invoices tab's order summary. */
@Injectable()
export class ServiceOrderReads {
  constructor(
    private readonly orders: ServiceOrdersRepository,
    private readonly stocks: StocksRepository,
  ) {}

  /**
   * Every order, newest first, each created one with its stock's current combinedTicker; an email-marketing
   * key given reads ORDER_KEY_GIVEN (the key is sealed for the email-marketing service, which applies it).
   */
  async list(actor: Actor): Promise<ServiceOrder[]> {
    requireAdmin(actor, 'list the service orders');
    const orders = await this.orders.all();
    const stockIds = orders.flatMap((o) => (o.stockId ? [o.stockId] : []));
    const stocks = stockIds.length ? await this.stocks.byIds(stockIds) : [];
    const tickerOf = new Map(stocks.map((s) => [s.id, `${s.ticker}:${s.exchange}`]));
    return orders.map((o) =>
      withoutSecrets(toServiceOrder(o, o.stockId ? (tickerOf.get(o.stockId) ?? null) : null)),
    );
  }

  /** The order a stock was created from; null when the stock is unknown or was not made from an order. */
  async ofStock(combinedTicker: string): Promise<ServiceOrder | null> {
    const ref = parseCombinedTicker(combinedTicker);
    const stockId = ref ? await this.stocks.idOf(ref) : null;
    const order = stockId ? await this.orders.ofStock(stockId) : null;
    if (!order || !ref) return null;
    return withoutSecrets(toServiceOrder(order, `${ref.ticker}:${ref.exchange}`));
  }

  /**
   * The email-marketing settings an order gave, for the email-marketing service to apply to the order's
   * stock, the key as the gateway sealed it for that service (this one cannot read it). Only once the stock
   * is made (until then nobody has settings to apply); null when the form gave none. A key stored in clear
   * by a release before keys were sealed on the bus is left out (logged): staff enter it on the tab.
   */
  async emailMarketingOf(serviceOrderId: string): Promise<OrderEmailMarketing | null> {
    const order = await this.orders.find(serviceOrderId);
    if (!order) throw new AppError(ErrorCode.NotFound, serviceOrderNotFoundMessage(serviceOrderId));
    if (!order.stockId)
      throw new AppError(ErrorCode.Conflict, `Service order ${serviceOrderId} has no stock created yet`);
    const given = order.emailMarketing;
    if (!given?.apiKey || given.apiKey.startsWith(SEALED_PREFIX)) return given;
    log.warn(
      { serviceOrderId },
      "an order's email-marketing key stored before keys were sealed: not passed on",
    );
    return { ...given, apiKey: '' };
  }
}
