import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/**
 * 'ServiceOrders' is this feature's; a stock made from an order also changes the staff dashboard's
 * 'StockList' (shared by name, never by import: web/README.md).
 */
const serviceOrdersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ServiceOrders', 'StockList'] });

/** The staff Orders calls (spec section 7, Orders; docs/api/stocks.md), typed by proto's table. */
export const serviceOrdersApi = serviceOrdersTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    serviceOrders: build.query<ResponseOf<typeof routes.stocks.serviceOrders>, void>({
      query: () => callRoute(routes.stocks.serviceOrders),
      providesTags: ['ServiceOrders'],
    }),
    /** POST /api/admin/createStockFromServiceOrder/: the new stock's page url, or an errorMessage (4xx). */
    createStockFromServiceOrder: build.mutation<
      ResponseOf<typeof routes.stocks.createStockFromServiceOrder>,
      BodyOf<typeof routes.stocks.createStockFromServiceOrder>
    >({
      query: (body) => callRoute(routes.stocks.createStockFromServiceOrder, { body }),
      invalidatesTags: (result) => (result ? ['ServiceOrders', 'StockList'] : []),
    }),
  }),
});

export const { useServiceOrdersQuery, useCreateStockFromServiceOrderMutation } = serviceOrdersApi;
