import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** The public order form's calls (spec section 7, Orders; docs/api/stocks.md), declared from proto's table. */
export const orderFormApi = baseApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/serviceorder/services/?groupId: the option cards (none named: the default's; an unknown group: 404). */
      serviceOptions: query(routes.stocks.serviceOptions, {
        request: (groupId: string | undefined) => ({ query: groupId ? { groupId } : {} }),
      }),
      /**
       * GET /api/serviceorder/form-token: the token the order is sent with (the gateway takes it only a few
       * seconds after it was issued). Fetched anew each time the form is shown, never kept.
       */
      orderFormToken: query(routes.stocks.orderFormToken, { keepUnusedDataFor: 0 }),
      /** POST /api/serviceorder/: 400 lists the missing fields' messages, 429 past the address's limit. */
      submitOrder: mutation(routes.stocks.submitOrder),
      /** GET /api/serviceorder/addresses?q: `available: false` means a plain address field. */
      addressSuggestions: query(routes.stocks.addressSuggestions, {
        request: ({ q, sessionToken }: { q: string; sessionToken: string }) => ({
          query: { q, sessionToken },
        }),
      }),
    })),
});

export const {
  useServiceOptionsQuery,
  useOrderFormTokenQuery,
  useSubmitOrderMutation,
  useAddressSuggestionsQuery,
} = orderFormApi;
