import { baseApi } from '@/api/baseApi';
import type { ResponseOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

export type AccountingPage = ResponseOf<typeof routes.invoicing.accountingPage>;

export type AccountingInvoiceList = 'unassigned' | 'ignored';
export type AccountingInvoicePage = ResponseOf<typeof routes.invoicing.accountingInvoices>;

/**
 * The later pages of the page's invoice lists: an assignment or a refresh answers the page with the first
 * of each list, and changes what the later ones hold.
 */
const LATER_PAGES = { type: 'AccountingPage', id: 'later pages' } as const;

/** The dashboards' rows carry the invoice figures: an assignment or a refresh changes them (tags by name). */
const accountingTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['AccountingPage', 'StockList', 'ClientStock', 'StockInvoices'],
});

/**
 * The accounting page's calls (docs/api/invoicing.md, admins). Refresh and assign answer the page itself,
 * which replaces the cached one without another request (its lists' later pages are read again).
 */
export const accountingApi = accountingTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      accountingPage: query(routes.invoicing.accountingPage, { providesTags: ['AccountingPage'] }),
      /** A later page of one of the page's invoice lists: the page after `after` (a `next`). */
      accountingInvoices: query(routes.invoicing.accountingInvoices, {
        request: ({ list, after }: { list: AccountingInvoiceList; after: string }) => ({
          params: { list },
          query: { after },
        }),
        providesTags: [LATER_PAGES],
      }),
      refreshAccounting: mutation(routes.invoicing.refreshAccounting, {
        request: () => ({ body: {} }),
        invalidatesTags: (result) =>
          result ? [LATER_PAGES, 'StockList', 'ClientStock', 'StockInvoices'] : [],
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          const page = await answered(queryFulfilled);
          if (page) dispatch(accountingApi.util.upsertQueryData('accountingPage', undefined, page));
        },
      }),
      /** The argument is the route's body. */
      assignInvoices: mutation(routes.invoicing.assignInvoices, {
        invalidatesTags: (result) =>
          result ? [LATER_PAGES, 'StockList', 'ClientStock', 'StockInvoices'] : [],
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          const page = await answered(queryFulfilled);
          if (page) dispatch(accountingApi.util.upsertQueryData('accountingPage', undefined, page));
        },
      }),
    })),
});

/** The answer of a call, or null when it failed (the page shows the error from the mutation's result). */
const answered = <T>(fulfilled: Promise<{ data: T }>): Promise<T | null> =>
  fulfilled.then(
    ({ data }) => data,
    () => null,
  );

export const { useAccountingPageQuery, useRefreshAccountingMutation, useAssignInvoicesMutation } =
  accountingApi;
