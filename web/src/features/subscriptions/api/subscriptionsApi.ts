import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';
import type { SubscriptionPreference } from '@irp/proto';

/** The subscription links' calls (docs/api/email-marketing.md); public, no session needed. */
export const subscriptionsApi = baseApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => {
      const byToken = (token: string) => ({ params: { token } });
      return {
        confirmSubscription: mutation(routes.emailMarketing.confirm, { request: byToken }),
        subscription: query(routes.emailMarketing.subscription, { request: byToken }),
        unsubscribe: mutation(routes.emailMarketing.unsubscribe, { request: byToken }),
        preferences: query(routes.emailMarketing.preferences, { request: byToken }),
        savePreferences: mutation(routes.emailMarketing.savePreferences, {
          request: ({
            token,
            ...body
          }: {
            token: string;
            preference: SubscriptionPreference;
            pauseWeeks?: number;
          }) => ({ params: { token }, body }),
        }),
      };
    }),
});

export const {
  useConfirmSubscriptionMutation,
  useSubscriptionQuery,
  useUnsubscribeMutation,
  usePreferencesQuery,
  useSavePreferencesMutation,
} = subscriptionsApi;
