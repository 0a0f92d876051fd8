import { StockRole } from '../common/roles';
import { access, defineRoutes } from '../common/routes';
import { NoBodySchema } from '../common/rest';
import { BOTH_KEYS_MESSAGE } from './rules';
import { SendEmailBodySchema } from '../announcements/rest';
import {
  EmailMarketingSettingsQuerySchema,
  EmailMarketingSettingsResponseSchema,
  SaveEmailMarketingSettingsBodySchema,
  SendSystemEmailResponseSchema,
  SubscriberCountQuerySchema,
  SubscriberCountResponseSchema,
  SubscribersQuerySchema,
  SubscribersResponseSchema,
  SubscriptionResponseSchema,
  PreferencesBodySchema,
  DeliverabilityQuerySchema,
  DeliverabilityResponseSchema,
  TestSendBodySchema,
  UnsubscribeResponseSchema,
  TestSendResponseSchema,
  TokenParamsSchema,
  OneClickBodySchema,
  WidgetSubscribeBodySchema,
  WidgetSubscribeResponseSchema,
} from './rest';

/**
 * The test sends name their stock by the product API key in the body (spec section 7's body), or by
 * `stockId` when the caller may not see that key (no ViewConfig): the stock's stored key is used then.
 */
const TEST_SEND_STOCK = {
  from: 'body',
  key: 'apiKey',
  by: 'apiKey',
  missingMessage: BOTH_KEYS_MESSAGE,
  otherwise: { from: 'body', key: 'stockId', by: 'stockId', missingMessage: BOTH_KEYS_MESSAGE },
} as const;
const TEST_SEND_DESCRIPTION =
  "Spec section 7's body: apiKey (the stock's product API key; it names the stock), listId, templateId, replyTo, " +
  "fromName, clientId, testEmailAddresses. The email-marketing key is the stock's saved one unless " +
  'emailMarketingApiKey is given; provider and savedSegmentId may be given too; a settings field left out is ' +
  'the saved one. apiKey left blank, stockId names the stock and its stored product key is used (for a caller ' +
  "who may not see the key). Either key blank (or stored on neither): 400 '" +
  `${BOTH_KEYS_MESSAGE}'. No stock has the product key: 404.`;

/**
 * The email routes (docs/api/email-marketing.md): spec section 7's email-marketing calls, the system
 * test email, and the subscriber routes (widget subscribe, confirm, one-click unsubscribe, the staff list).
 */
export const emailMarketingRoutes = defineRoutes('emailMarketing', {
  subscriberCount: {
    method: 'GET',
    path: '/api/EmailMarketingSubscriberCount',
    access: access.stock([StockRole.EditMailchimp], { from: 'query', key: 'stockId', by: 'stockId' }),
    summary:
      "The provider's subscriber count of a list, with the key in the X-Provider-Api-Key header or the stock's saved one; success false with the message",
    description:
      "A key typed and not saved yet goes in the X-Provider-Api-Key header; left out, the stock's saved key is used. The spec's apiKey query parameter is refused (400) unless blank or the mask: a key in a URL is kept in logs, proxies and browser history.",
    query: SubscriberCountQuerySchema,
    response: SubscriberCountResponseSchema,
  },
  settings: {
    method: 'GET',
    path: '/api/emailMarketingSettings/',
    access: access.stock([StockRole.EditMailchimp], { from: 'query', key: 'id', by: 'stockId' }),
    summary: "A stock's email-marketing settings (id = stock id); settings null when none saved",
    query: EmailMarketingSettingsQuerySchema,
    response: EmailMarketingSettingsResponseSchema,
  },
  saveSettings: {
    method: 'POST',
    path: '/api/emailMarketingSettings/',
    access: access.stock([StockRole.EditMailchimp], { from: 'body', key: 'StockId', by: 'stockId' }),
    summary: "Save a stock's email-marketing settings (body StockId, Settings)",
    body: SaveEmailMarketingSettingsBodySchema,
    response: EmailMarketingSettingsResponseSchema,
  },
  sendTestEmail: {
    method: 'POST',
    path: '/api/TestSendAnnouncement/sendTestEmail',
    access: access.stock([StockRole.TestSendAnnouncement], TEST_SEND_STOCK),
    summary:
      'Send Test Email: a campaign of the latest announcement of the stock whose product API key is `apiKey`, test-sent to the test addresses',
    description: TEST_SEND_DESCRIPTION,
    body: TestSendBodySchema,
    response: TestSendResponseSchema,
  },
  sendToSubscribers: {
    method: 'POST',
    path: '/api/TestSendAnnouncement/sendToSubscribers',
    access: access.admin(),
    summary:
      "Send To Subscribers (admins): the campaign of the `apiKey` stock's latest announcement sent to the list; refused when it has more than 5 subscribers",
    description: TEST_SEND_DESCRIPTION,
    body: TestSendBodySchema,
    response: TestSendResponseSchema,
  },
  widgetSubscribe: {
    method: 'POST',
    path: '/api/widget/subscribe',
    access: access.widget(),
    summary:
      "Subscribe an address to the API key's stock's announcements: a confirmation mail is sent (public, CORS *); 400 bad address, 429 too many attempts",
    body: WidgetSubscribeBodySchema,
    response: WidgetSubscribeResponseSchema,
  },
  confirm: {
    method: 'POST',
    path: '/api/subscription/confirm/{token}',
    access: access.public('the token of the confirmation mail is the proof; it works once'),
    summary: 'Confirm a subscription (the link of the confirmation mail; works once)',
    params: TokenParamsSchema,
    body: NoBodySchema,
    response: SubscriptionResponseSchema,
  },
  subscription: {
    method: 'GET',
    path: '/api/subscription/unsubscribe/{token}',
    access: access.public(
      'the token of the unsubscribe link is the proof; it shows the company, never the address',
    ),
    summary: 'Which company an unsubscribe link is for (changes nothing; not the address)',
    params: TokenParamsSchema,
    response: UnsubscribeResponseSchema,
  },
  unsubscribe: {
    method: 'POST',
    path: '/api/subscription/unsubscribe/{token}',
    access: access.public('the token of the unsubscribe link is the proof (RFC 8058 one-click)'),
    summary: 'Unsubscribe (one click, RFC 8058; idempotent)',
    params: TokenParamsSchema,
    body: OneClickBodySchema,
    // RFC 8058 section 3.1: mail clients post the one-click body as multipart/form-data (SHOULD) or
    // form-encoded; its content is not read (the token is the proof), so no parser is needed for it.
    bodyTypes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    response: UnsubscribeResponseSchema,
  },
  deliverability: {
    method: 'GET',
    path: '/api/emailMarketing/deliverability',
    access: access.stock([StockRole.EditMailchimp], { from: 'query', key: 'stockId', by: 'stockId' }),
    summary:
      "The stock's announcement mail per Sydney day over its last `days` (30): sent, accepted, bounced, complained, unsubscribed; the complaint rate; the latest alert latencies",
    query: DeliverabilityQuerySchema,
    response: DeliverabilityResponseSchema,
  },
  preferences: {
    method: 'GET',
    path: '/api/subscription/preferences/{token}',
    access: access.public(
      "the token of any of the subscriber's mails is the proof; it shows the company and the choices, never the address",
    ),
    summary: 'What a subscriber chose to be mailed and whether the mails are paused (the preference page)',
    params: TokenParamsSchema,
    response: UnsubscribeResponseSchema,
  },
  savePreferences: {
    method: 'POST',
    path: '/api/subscription/preferences/{token}',
    access: access.public("the token of any of the subscriber's mails is the proof"),
    summary:
      'Choose every announcement or price-sensitive ones only, and pause the mails for some weeks (0 resumes); applies to the next send',
    params: TokenParamsSchema,
    body: PreferencesBodySchema,
    response: UnsubscribeResponseSchema,
  },
  subscribers: {
    method: 'GET',
    path: '/api/admin/subscribers',
    access: access.admin(),
    summary: "A stock's subscribers (combinedTicker), newest first, with counts by status",
    query: SubscribersQuerySchema,
    response: SubscribersResponseSchema,
  },
  sendSystemEmail: {
    method: 'POST',
    path: '/api/admin/sendEmail',
    access: access.admin(),
    summary: 'Send a test email to the address(es) given (comma or semicolon separated)',
    body: SendEmailBodySchema,
    response: SendSystemEmailResponseSchema,
  },
});
