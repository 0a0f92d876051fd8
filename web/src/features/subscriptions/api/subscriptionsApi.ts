import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** The subscription links' calls (docs/api/email-marketing.md); public, no session needed. */
export const subscriptionsApi = baseApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => {
      const byToken = (token: string) => ({ params: { token } });
      return {
        confirmSubscription: mutation(routes.emailMarketing.confirm, { request: byToken }),
        subscription: query(routes.emailMarketing.subscription, { request: byToken }),
        unsubscribe: mutation(routes.emailMarketing.unsubscribe, { request: byToken }),
      };
    }),
});

export const { useConfirmSubscriptionMutation, useSubscriptionQuery, useUnsubscribeMutation } =
  subscriptionsApi;
