/**
 * The price of the stock's service order option, which Create Repeating Invoice proposes instead of the
 * default 1800 (spec section 9), or undefined when the stock has no service order.
 *
 * TODO(issue 19, service orders): `GET /api/admin/getServiceOrder?ticker` is added to proto's route table
 * (routes.stocks / serviceOrders) on the service orders branch. Once it is on this branch, query it here
 * (an endpoint in this file with callRoute) and answer its option's price; the tab already uses this hook
 * and shows the service order summary from the same answer. Until then: no price, so the tab proposes
 * `defaultRepeatingAmount`.
 */
export function useServiceOrderPrice(combinedTicker: string): number | undefined {
  void combinedTicker;
  return undefined;
}
