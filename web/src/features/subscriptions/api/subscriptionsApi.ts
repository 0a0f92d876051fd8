import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** The subscription links' calls (docs/api/email-marketing.md); public, no session needed. */
export const subscriptionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    confirmSubscription: build.mutation<ResponseOf<typeof routes.emailMarketing.confirm>, string>({
      query: (token) => callRoute(routes.emailMarketing.confirm, { params: { token } }),
    }),
    subscription: build.query<ResponseOf<typeof routes.emailMarketing.subscription>, string>({
      query: (token) => callRoute(routes.emailMarketing.subscription, { params: { token } }),
    }),
    unsubscribe: build.mutation<ResponseOf<typeof routes.emailMarketing.unsubscribe>, string>({
      query: (token) => callRoute(routes.emailMarketing.unsubscribe, { params: { token } }),
    }),
  }),
});

export const { useConfirmSubscriptionMutation, useSubscriptionQuery, useUnsubscribeMutation } =
  subscriptionsApi;
