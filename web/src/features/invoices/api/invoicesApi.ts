import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

export type StockInvoiceData = ResponseOf<typeof routes.invoicing.invoices>;

/** The dashboards show the invoice figures: a new repeating invoice or choice changes them (tags by name). */
const invoicesTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['StockInvoices', 'StockList', 'ClientStock'],
});

/** The Invoices tab's calls (docs/api/invoicing.md): InvoiceTotal holders and admins. */
export const invoicesApi = invoicesTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/invoices?ticker: the stock's invoices, repeating invoice and its options. */
    stockInvoices: build.query<StockInvoiceData, string>({
      query: (ticker) => callRoute(routes.invoicing.invoices, { query: { ticker } }),
      providesTags: (_result, _error, ticker) => [{ type: 'StockInvoices', id: ticker }],
    }),
    /** The page's Save on this tab: the stock's repeating invoice. Answers the tab's data, cached as it is. */
    saveInvoiceData: build.mutation<StockInvoiceData, { ticker: string; repeatingInvoiceId: string | null }>({
      query: ({ ticker, repeatingInvoiceId }) =>
        callRoute(routes.invoicing.saveInvoiceData, {
          params: { ticker },
          body: { ticker, repeatingInvoiceId },
        }),
      invalidatesTags: (result) => (result ? ['StockList', 'ClientStock'] : []),
      async onQueryStarted({ ticker }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(invoicesApi.util.upsertQueryData('stockInvoices', ticker, data));
        } catch {
          // The save flow shows the error.
        }
      },
    }),
    createContact: build.mutation<
      ResponseOf<typeof routes.invoicing.createContact>,
      { stockId: string; ticker: string }
    >({
      query: ({ stockId }) => callRoute(routes.invoicing.createContact, { query: { id: stockId }, body: {} }),
      invalidatesTags: (result, _error, { ticker }) =>
        result?.success ? [{ type: 'StockInvoices', id: ticker }] : [],
    }),
    createRepeatingInvoice: build.mutation<
      ResponseOf<typeof routes.invoicing.createRepeatingInvoice>,
      { stockId: string; ticker: string; amount: number }
    >({
      query: ({ stockId, amount }) =>
        callRoute(routes.invoicing.createRepeatingInvoice, { body: { id: stockId, amount } }),
      invalidatesTags: (result, _error, { ticker }) =>
        result?.success ? [{ type: 'StockInvoices', id: ticker }, 'StockList', 'ClientStock'] : [],
    }),
  }),
});

export const {
  useStockInvoicesQuery,
  useSaveInvoiceDataMutation,
  useCreateContactMutation,
  useCreateRepeatingInvoiceMutation,
} = invoicesApi;
