import { displayTicker, type StockReferers } from '@irp/proto';
import { textFilter } from '@/lib/textFilter';

/** The text filter matches the ticker (as shown or combined) and the referring page URLs. */
export const filterReferers = textFilter<StockReferers>((stock) => [
  stock.combinedTicker,
  displayTicker(stock.ticker, stock.exchange),
  ...stock.referers.map((referer) => referer.url),
]);
