import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/**
 * 'ServiceOrders' is this feature's; a stock made from an order also changes the staff dashboard's
 * 'StockList' (shared by name, never by import: web/README.md).
 */
const serviceOrdersTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['ServiceOrders', 'StockList', 'OptionGroups'],
});

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
    /** GET /api/admin/serviceOptionGroups: every group, the default first, archived ones last. */
    optionGroups: build.query<ResponseOf<typeof routes.stocks.optionGroups>, void>({
      query: () => callRoute(routes.stocks.optionGroups),
      providesTags: ['OptionGroups'],
    }),
    /** POST /api/admin/saveServiceOptionGroup: create (no id) or edit; a 400 lists each problem. */
    saveOptionGroup: build.mutation<
      ResponseOf<typeof routes.stocks.saveOptionGroup>,
      BodyOf<typeof routes.stocks.saveOptionGroup>
    >({
      query: (body) => callRoute(routes.stocks.saveOptionGroup, { body }),
      invalidatesTags: (result) => (result ? ['OptionGroups'] : []),
    }),
    /** POST /api/admin/setDefaultServiceOptionGroup: the group /new-order shows. */
    setDefaultOptionGroup: build.mutation<
      ResponseOf<typeof routes.stocks.setDefaultOptionGroup>,
      BodyOf<typeof routes.stocks.setDefaultOptionGroup>
    >({
      query: (body) => callRoute(routes.stocks.setDefaultOptionGroup, { body }),
      invalidatesTags: (result) => (result ? ['OptionGroups'] : []),
    }),
    /** POST /api/admin/archiveServiceOptionGroup: archive (its form no longer offered) or restore. */
    archiveOptionGroup: build.mutation<
      ResponseOf<typeof routes.stocks.archiveOptionGroup>,
      BodyOf<typeof routes.stocks.archiveOptionGroup>
    >({
      query: (body) => callRoute(routes.stocks.archiveOptionGroup, { body }),
      invalidatesTags: (result) => (result ? ['OptionGroups'] : []),
    }),
  }),
});

export const {
  useServiceOrdersQuery,
  useCreateStockFromServiceOrderMutation,
  useOptionGroupsQuery,
  useSaveOptionGroupMutation,
  useSetDefaultOptionGroupMutation,
  useArchiveOptionGroupMutation,
} = serviceOrdersApi;
