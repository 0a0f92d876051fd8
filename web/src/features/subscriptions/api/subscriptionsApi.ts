import type { SubscriptionResponseDto } from '@irp/proto';
import { baseApi } from '@/api/baseApi';

/** The subscription links' calls (docs/api/email-marketing.md); public, no session needed. */
export const subscriptionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    confirmSubscription: build.mutation<SubscriptionResponseDto, string>({
      query: (token) => ({ url: `/subscription/confirm/${encodeURIComponent(token)}`, method: 'POST' }),
    }),
    subscription: build.query<SubscriptionResponseDto, string>({
      query: (token) => `/subscription/unsubscribe/${encodeURIComponent(token)}`,
    }),
    unsubscribe: build.mutation<SubscriptionResponseDto, string>({
      query: (token) => ({ url: `/subscription/unsubscribe/${encodeURIComponent(token)}`, method: 'POST' }),
    }),
  }),
});

export const { useConfirmSubscriptionMutation, useSubscriptionQuery, useUnsubscribeMutation } =
  subscriptionsApi;
