import { baseApi } from '@/api/baseApi';
import type { ResponseOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

export type StockServiceOrder = ResponseOf<typeof routes.stocks.serviceOrderOfStock>;

const serviceOrderApi = baseApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query }) => ({
      /** GET /api/admin/getServiceOrder?ticker: the order the stock was created from, or null. */
      serviceOrderOfStock: query(routes.stocks.serviceOrderOfStock, {
        request: (ticker: string) => ({ query: { ticker } }),
      }),
    })),
});

export const { useServiceOrderOfStockQuery } = serviceOrderApi;

/**
 * The stock's service order (the Invoices tab's summary) and its option's price in whole dollars, which
 * Create Repeating Invoice proposes instead of the default 1800 (spec section 9); the price is undefined
 * while loading, without an order, or for an order without an option.
 */
export function useServiceOrder(combinedTicker: string): {
  order: StockServiceOrder | undefined;
  price: number | undefined;
  isLoading: boolean;
  error: unknown;
} {
  const { data, isLoading, error } = useServiceOrderOfStockQuery(combinedTicker);
  return { order: data, price: data?.option?.price ?? undefined, isLoading, error };
}
