import { displayTicker, type StockReferers } from '@irp/proto';

/** The text filter matches the ticker (as shown or combined) and the referring page URLs. */
export function filterReferers(stocks: readonly StockReferers[], text: string): StockReferers[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...stocks];
  return stocks.filter(
    (stock) =>
      stock.combinedTicker.toLowerCase().includes(needle) ||
      displayTicker(stock.ticker, stock.exchange).toLowerCase().includes(needle) ||
      stock.referers.some((referer) => referer.url.toLowerCase().includes(needle)),
  );
}
