import { baseApi } from '@/api/baseApi';
import type { ResponseOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

export type StockInvoiceData = ResponseOf<typeof routes.invoicing.invoices>;
export type UnassignedInvoice = ResponseOf<typeof routes.invoicing.accountingPage>['invoices'][number];

/**
 * The dashboards show the invoice figures: a new repeating invoice, choice or assignment changes them, and
 * an assignment the accounting page's lists (tags by name).
 */
const invoicesTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['StockInvoices', 'StockList', 'ClientStock', 'AccountingPage'],
});

/** What the tab saves through saveInvoiceData: a field left out stays as it is. */
export interface SaveInvoiceDataArgs {
  ticker: string;
  /** The repeating invoice choice (null: none chosen). */
  repeatingInvoiceId?: string | null;
  /** Every invoice assigned to the stock by hand, replacing the earlier ones. */
  invoices?: string[];
}

/** The Invoices tab's calls (docs/api/invoicing.md): InvoiceTotal holders and admins. */
export const invoicesApi = invoicesTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/admin/invoices?ticker: the stock's invoices, repeating invoice and its options. */
      stockInvoices: query(routes.invoicing.invoices, {
        request: (ticker: string) => ({ query: { ticker } }),
        providesTags: (_result, _error, ticker) => [{ type: 'StockInvoices', id: ticker }],
      }),
      /**
       * The invoices no stock has (the accounting page's `invoices`), which the tab can assign to its stock.
       * Read from the accounting page's data, cached and invalidated with it.
       */
      unassignedInvoices: query(routes.invoicing.accountingPage, {
        transformResponse: (page) => ({ invoices: page.invoices, next: page.invoicesNext }),
        providesTags: ['AccountingPage'],
      }),
      /** The unassigned invoices after `after` (the first page's `next`, then each later page's). */
      laterUnassignedInvoices: query(routes.invoicing.accountingInvoices, {
        request: (after: string) => ({ params: { list: 'unassigned' }, query: { after } }),
        providesTags: [{ type: 'AccountingPage', id: 'later pages' }],
      }),
      /**
       * The page's Save on this tab (the repeating invoice) and the tab's Assign and Unassign (the invoices).
       * Answers the tab's data, cached as it is.
       */
      saveInvoiceData: mutation(routes.invoicing.saveInvoiceData, {
        request: ({ ticker, repeatingInvoiceId, invoices }: SaveInvoiceDataArgs) => ({
          params: { ticker },
          body: {
            ticker,
            ...(repeatingInvoiceId !== undefined ? { repeatingInvoiceId } : {}),
            ...(invoices !== undefined ? { invoices } : {}),
          },
        }),
        invalidatesTags: (result, _error, { invoices }) =>
          result ? ['StockList', 'ClientStock', ...(invoices ? (['AccountingPage'] as const) : [])] : [],
        async onQueryStarted({ ticker }, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(invoicesApi.util.upsertQueryData('stockInvoices', ticker, data));
          } catch {
            // The save flow or the tab shows the error.
          }
        },
      }),
      createContact: mutation(routes.invoicing.createContact, {
        request: ({ stockId }: { stockId: string; ticker: string }) => ({ query: { id: stockId }, body: {} }),
        invalidatesTags: (result, _error, { ticker }) =>
          result?.success ? [{ type: 'StockInvoices', id: ticker }] : [],
      }),
      createRepeatingInvoice: mutation(routes.invoicing.createRepeatingInvoice, {
        request: ({ stockId, amount }: { stockId: string; ticker: string; amount: number }) => ({
          body: { id: stockId, amount },
        }),
        invalidatesTags: (result, _error, { ticker }) =>
          result?.success ? [{ type: 'StockInvoices', id: ticker }, 'StockList', 'ClientStock'] : [],
      }),
    })),
});

export const {
  useStockInvoicesQuery,
  useUnassignedInvoicesQuery,
  useSaveInvoiceDataMutation,
  useCreateContactMutation,
  useCreateRepeatingInvoiceMutation,
} = invoicesApi;
