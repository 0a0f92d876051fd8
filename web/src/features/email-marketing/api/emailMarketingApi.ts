import type {
  EmailMarketingSettingsResponseDto,
  SaveEmailMarketingSettingsBody,
  SubscriberCountResponseDto,
  SubscribersResponseDto,
  TestSendBody,
  TestSendResponseDto,
} from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import type { SubscriberCountArgs } from '../model/emailMarketingForm';

/** Send Test Email (a campaign test-sent to the test addresses) or Send To Subscribers (admins). */
export type TestSendMode = 'test' | 'subscribers';

const TEST_SEND_PATHS: Record<TestSendMode, string> = {
  test: '/TestSendAnnouncement/sendTestEmail',
  subscribers: '/TestSendAnnouncement/sendToSubscribers',
};

export interface TestSendArgs {
  mode: TestSendMode;
  body: TestSendBody;
}

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
    emailMarketingSettings: build.query<EmailMarketingSettingsResponseDto, string>({
      query: (stockId) => ({ url: '/emailMarketingSettings/', params: { id: stockId } }),
      providesTags: (_result, _error, stockId) => [{ type: 'EmailMarketingSettings', id: stockId }],
    }),
    /** POST /api/emailMarketingSettings/ (StockId, Settings): answers the settings as stored. */
    saveEmailMarketingSettings: build.mutation<
      EmailMarketingSettingsResponseDto,
      SaveEmailMarketingSettingsBody
    >({
      query: (body) => ({ url: '/emailMarketingSettings/', method: 'POST', body }),
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
    /** GET /api/EmailMarketingSubscriberCount: the provider's count of the list, keys as typed. */
    subscriberCount: build.query<SubscriberCountResponseDto, SubscriberCountArgs>({
      query: (args) => ({ url: '/EmailMarketingSubscriberCount', params: { ...args } }),
      // Each keystroke pause asks with other keys; old counts are of no further use.
      keepUnusedDataFor: 30,
    }),
    /** POST /api/TestSendAnnouncement/sendTestEmail or /sendToSubscribers. */
    testSend: build.mutation<TestSendResponseDto, TestSendArgs>({
      query: ({ mode, body }) => ({ url: TEST_SEND_PATHS[mode], method: 'POST', body }),
    }),
    /** GET /api/admin/subscribers?combinedTicker: the stock's subscribers and counts (staff). */
    subscribers: build.query<SubscribersResponseDto, string>({
      query: (combinedTicker) => ({ url: '/admin/subscribers', params: { combinedTicker } }),
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
