import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';
import type { SubscriberCountArgs } from '../model/emailMarketingForm';

/** Send Test Email (a campaign test-sent to the test addresses) or Send To Subscribers (admins). */
export type TestSendMode = 'test' | 'subscribers';

/**
 * 'EmailMarketingSettings' and 'Subscribers' (one per stock) are this feature's. A saved setting changes
 * the dashboards' Email marketing column: the staff list's 'StockList' and the client pages'
 * 'ClientStock', shared by name, never by import (web/README.md).
 */
const emailMarketingTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['EmailMarketingSettings', 'Subscribers', 'StockList', 'ClientStock'],
});

/** Email-marketing calls of spec section 7, declared from proto's route table (email-marketing/routes.ts). */
export const emailMarketingApi = emailMarketingTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/emailMarketingSettings/?id: `settings` is null while the stock has none saved. */
      emailMarketingSettings: query(routes.emailMarketing.settings, {
        request: (stockId: string) => ({ query: { id: stockId } }),
        providesTags: (_result, _error, stockId) => [{ type: 'EmailMarketingSettings', id: stockId }],
      }),
      /** POST /api/emailMarketingSettings/ (StockId, Settings): answers the settings as stored. */
      saveEmailMarketingSettings: mutation(routes.emailMarketing.saveSettings, {
        // The form shows the stored settings at once; the refetch the tag asks for confirms them.
        async onQueryStarted(body, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            if (data.success && data.settings) {
              dispatch(emailMarketingApi.util.upsertQueryData('emailMarketingSettings', body.StockId, data));
            }
          } catch {
            // The save flow shows the error.
          }
        },
        invalidatesTags: (result, _error, body) =>
          result?.success
            ? [{ type: 'EmailMarketingSettings', id: body.StockId }, 'StockList', 'ClientStock']
            : [],
      }),
      /** GET /api/EmailMarketingSubscriberCount: the provider's count of the list with the stored key (none in the URL). */
      subscriberCount: query(routes.emailMarketing.subscriberCount, {
        request: (args: SubscriberCountArgs) => ({ query: { ...args } }),
        // Each keystroke pause asks with other keys; old counts are of no further use.
        keepUnusedDataFor: 30,
      }),
      /** POST /api/TestSendAnnouncement/sendTestEmail (Send Test Email). */
      sendTestEmail: mutation(routes.emailMarketing.sendTestEmail),
      /** POST /api/TestSendAnnouncement/sendToSubscribers (Send To Subscribers): the same body and answer. */
      sendToSubscribers: mutation(routes.emailMarketing.sendToSubscribers),
      /**
       * GET /api/admin/subscribers?combinedTicker: the stock's newest subscribers, where the rest continue, and
       * its counts (staff).
       */
      /** GET /api/emailMarketing/deliverability: the stock's mail per Sydney day (issue 36's panel). */
      deliverability: query(routes.emailMarketing.deliverability, {
        request: (stockId: string) => ({ query: { stockId } }),
      }),
      subscribers: query(routes.emailMarketing.subscribers, {
        request: (combinedTicker: string) => ({ query: { combinedTicker } }),
        providesTags: (_result, _error, combinedTicker) => [{ type: 'Subscribers', id: combinedTicker }],
        // A new answer replaces the list whole: compared object by object with the last one, 50,000
        // subscribers would be walked and copied on every refetch.
        structuralSharing: false,
      }),
      /** The same list's later pages: the page after `after` (the `next` of the page before). */
      olderSubscribers: query(routes.emailMarketing.subscribers, {
        request: ({ combinedTicker, after }: { combinedTicker: string; after: string }) => ({
          query: { combinedTicker, after },
        }),
        providesTags: (_result, _error, { combinedTicker }) => [{ type: 'Subscribers', id: combinedTicker }],
        structuralSharing: false,
      }),
    })),
});

export const {
  useEmailMarketingSettingsQuery,
  useSaveEmailMarketingSettingsMutation,
  useSubscriberCountQuery,
  useSendTestEmailMutation,
  useSendToSubscribersMutation,
  useSubscribersQuery,
  useDeliverabilityQuery,
} = emailMarketingApi;
