import {
  API_KEY_MASK,
  type EmailMarketingSettings,
  type EmailMarketingSettingsDto,
  type SubscriberCountResponseDto,
  type SubscribersResponseDto,
  type DeliverabilityResponseDto,
  type TestSendResponseDto,
} from '@irp/proto';
import { routes } from '@/api/routes';
import { jsonResponse } from '@/test/render';
import type { Handler } from '@/test/fakeApi';
import { NO_CHOICES, NO_DELIVERABILITY } from './fixtures';

export const SETTINGS_PATH = routes.emailMarketing.settings.path;
export const COUNT_PATH = routes.emailMarketing.subscriberCount.path;
export const TEST_EMAIL_PATH = routes.emailMarketing.sendTestEmail.path;
export const TO_SUBSCRIBERS_PATH = routes.emailMarketing.sendToSubscribers.path;
export const SUBSCRIBERS_PATH = routes.emailMarketing.subscribers.path;
export const DELIVERABILITY_PATH = routes.emailMarketing.deliverability.path;

/**
 * The email-marketing routes as the gateway answers them, over one stock's stored settings: GET and POST
 * settings (a POST stores what it is sent; a key blank or the mask keeps the stored one; answers carry the
 * key masked, as the server does), the count, both sends and the subscriber list. `overrides` replace any
 * of them.
 */
export function emailMarketingRoutes(
  stockId: string,
  stored: EmailMarketingSettings | null,
  {
    count = { success: true, count: 1234, message: '' },
    testSend = {
      errorMessage: null,
      previewUrl: 'https://preview.example/c/1',
      message: 'Test sent successfully.',
    },
    toSubscribers = {
      errorMessage: null,
      previewUrl: 'https://preview.example/c/2',
      message: 'Campaign created successfully.',
    },
    subscribers = {
      subscribers: [],
      counts: { pending: 0, confirmed: 0, unsubscribed: 0 },
      choices: NO_CHOICES,
      next: null,
    },
    deliverability = NO_DELIVERABILITY,
  }: {
    count?: SubscriberCountResponseDto;
    testSend?: TestSendResponseDto;
    toSubscribers?: TestSendResponseDto;
    subscribers?: SubscribersResponseDto;
    deliverability?: DeliverabilityResponseDto;
  } = {},
): Record<string, Handler> {
  let settings: EmailMarketingSettings | null = stored;
  const answer = (): EmailMarketingSettingsDto | null =>
    settings && {
      ...settings,
      stockId,
      apiKey: settings.apiKey ? API_KEY_MASK : '',
      apiKeySet: !!settings.apiKey,
    };
  return {
    [`GET ${SETTINGS_PATH}`]: () => jsonResponse({ success: true, settings: answer(), errorMessage: null }),
    [`POST ${SETTINGS_PATH}`]: (call) => {
      const body = call.body as { StockId: string; Settings: EmailMarketingSettings };
      const typed = body.Settings.apiKey.trim();
      const kept = typed === '' || typed === API_KEY_MASK;
      settings = { ...body.Settings, apiKey: kept ? (settings?.apiKey ?? '') : typed };
      return jsonResponse({ success: true, settings: answer(), errorMessage: null });
    },
    [`GET ${COUNT_PATH}`]: () => jsonResponse(count),
    [`POST ${TEST_EMAIL_PATH}`]: () => jsonResponse(testSend),
    [`POST ${TO_SUBSCRIBERS_PATH}`]: () => jsonResponse(toSubscribers),
    [`GET ${SUBSCRIBERS_PATH}`]: () => jsonResponse(subscribers),
    [`GET ${DELIVERABILITY_PATH}`]: () => jsonResponse(deliverability),
  };
}
