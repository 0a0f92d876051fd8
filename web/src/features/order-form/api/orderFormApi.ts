import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** The public order form's calls (spec section 7, Orders; docs/api/stocks.md), typed by proto's table. */
export const orderFormApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/serviceorder/services/?groupId: the option cards (none named: the default's; an unknown group: 404). */
    serviceOptions: build.query<ResponseOf<typeof routes.stocks.serviceOptions>, string | undefined>({
      query: (groupId) => callRoute(routes.stocks.serviceOptions, { query: groupId ? { groupId } : {} }),
    }),
    /** POST /api/serviceorder/: 400 lists the missing fields' messages, 429 past the address's limit. */
    submitOrder: build.mutation<
      ResponseOf<typeof routes.stocks.submitOrder>,
      BodyOf<typeof routes.stocks.submitOrder>
    >({
      query: (body) => callRoute(routes.stocks.submitOrder, { body }),
    }),
    /** GET /api/serviceorder/addresses?q: `available: false` means a plain address field. */
    addressSuggestions: build.query<ResponseOf<typeof routes.stocks.addressSuggestions>, string>({
      query: (q) => callRoute(routes.stocks.addressSuggestions, { query: { q } }),
    }),
  }),
});

export const { useServiceOptionsQuery, useSubmitOrderMutation, useAddressSuggestionsQuery } = orderFormApi;
