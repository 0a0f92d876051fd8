import type { SaveEmailMarketingSettingsBody } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';
import type { SubscriberCountArgs } from '../model/emailMarketingForm';

/** Send Test Email (a campaign test-sent to the test addresses) or Send To Subscribers (admins). */
export type TestSendMode = 'test' | 'subscribers';

const TEST_SEND_ROUTES = {
  test: routes.emailMarketing.sendTestEmail,
  subscribers: routes.emailMarketing.sendToSubscribers,
} as const;

export interface TestSendArgs {
  mode: TestSendMode;
  body: BodyOf<typeof routes.emailMarketing.sendTestEmail>;
}

type SettingsResponse = ResponseOf<typeof routes.emailMarketing.settings>;

/**
 * 'EmailMarketingSettings' and 'Subscribers' (one per stock) are this feature's. A saved setting changes
 * the dashboards' Email marketing column: the staff list's 'StockList' and the client pages'
 * 'ClientStock', shared by name, never by import (web/README.md).
 */
const emailMarketingTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['EmailMarketingSettings', 'Subscribers', 'StockList', 'ClientStock'],
});

/** Email-marketing calls of spec section 7, typed with proto's REST shapes (email-marketing/rest.ts). */
export const emailMarketingApi = emailMarketingTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/emailMarketingSettings/?id: `settings` is null while the stock has none saved. */
    emailMarketingSettings: build.query<SettingsResponse, string>({
      query: (stockId) => callRoute(routes.emailMarketing.settings, { query: { id: stockId } }),
      providesTags: (_result, _error, stockId) => [{ type: 'EmailMarketingSettings', id: stockId }],
    }),
    /** POST /api/emailMarketingSettings/ (StockId, Settings): answers the settings as stored. */
    saveEmailMarketingSettings: build.mutation<
      ResponseOf<typeof routes.emailMarketing.saveSettings>,
      SaveEmailMarketingSettingsBody
    >({
      query: (body) => callRoute(routes.emailMarketing.saveSettings, { body }),
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
    subscriberCount: build.query<
      ResponseOf<typeof routes.emailMarketing.subscriberCount>,
      SubscriberCountArgs
    >({
      query: (args) => callRoute(routes.emailMarketing.subscriberCount, { query: { ...args } }),
      // Each keystroke pause asks with other keys; old counts are of no further use.
      keepUnusedDataFor: 30,
    }),
    /** POST /api/TestSendAnnouncement/sendTestEmail or /sendToSubscribers. */
    testSend: build.mutation<ResponseOf<typeof routes.emailMarketing.sendTestEmail>, TestSendArgs>({
      query: ({ mode, body }) => callRoute(TEST_SEND_ROUTES[mode], { body }),
    }),
    /** GET /api/admin/subscribers?combinedTicker: the stock's subscribers and counts (staff). */
    subscribers: build.query<ResponseOf<typeof routes.emailMarketing.subscribers>, string>({
      query: (combinedTicker) => callRoute(routes.emailMarketing.subscribers, { query: { combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Subscribers', id: combinedTicker }],
    }),
  }),
});

export const {
  useEmailMarketingSettingsQuery,
  useSaveEmailMarketingSettingsMutation,
  useSubscriberCountQuery,
  useTestSendMutation,
  useSubscribersQuery,
} = emailMarketingApi;
