import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/**
 * 'ServiceOrders' is this feature's; a stock made from an order also changes the staff dashboard's
 * 'StockList' (shared by name, never by import: web/README.md).
 */
const serviceOrdersTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['ServiceOrders', 'StockList', 'OptionGroups'],
});

/**
 * The staff Orders calls (spec section 7, Orders; docs/api/stocks.md), declared from proto's table; each
 * mutation's argument is its route's body.
 */
export const serviceOrdersApi = serviceOrdersTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      serviceOrders: query(routes.stocks.serviceOrders, { providesTags: ['ServiceOrders'] }),
      /** POST /api/admin/createStockFromServiceOrder/: the new stock's page url, or an errorMessage (4xx). */
      createStockFromServiceOrder: mutation(routes.stocks.createStockFromServiceOrder, {
        invalidatesTags: (result) => (result ? ['ServiceOrders', 'StockList'] : []),
      }),
      /** GET /api/admin/serviceOptionGroups: every group, the default first, archived ones last. */
      optionGroups: query(routes.stocks.optionGroups, { providesTags: ['OptionGroups'] }),
      /** POST /api/admin/saveServiceOptionGroup: create (no id) or edit; a 400 lists each problem. */
      saveOptionGroup: mutation(routes.stocks.saveOptionGroup, {
        invalidatesTags: (result) => (result ? ['OptionGroups'] : []),
      }),
      /** POST /api/admin/setDefaultServiceOptionGroup: the group /new-order shows. */
      setDefaultOptionGroup: mutation(routes.stocks.setDefaultOptionGroup, {
        invalidatesTags: (result) => (result ? ['OptionGroups'] : []),
      }),
      /** POST /api/admin/archiveServiceOptionGroup: archive (its form no longer offered) or restore. */
      archiveOptionGroup: mutation(routes.stocks.archiveOptionGroup, {
        invalidatesTags: (result) => (result ? ['OptionGroups'] : []),
      }),
    })),
});

export const {
  useServiceOrdersQuery,
  useCreateStockFromServiceOrderMutation,
  useOptionGroupsQuery,
  useSaveOptionGroupMutation,
  useSetDefaultOptionGroupMutation,
  useArchiveOptionGroupMutation,
} = serviceOrdersApi;
