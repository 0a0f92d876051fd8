import type { EmailMarketingSettings, SubscriptionPreference, SuppressionReason } from './records';

/**
 * The email rules' texts, limits and constants (spec sections 5, 8, 9, and this portal's subscriber rules).
 * No zod here: the web app takes these values without the schemas.
 */

/** The two provider types (vendor-apis.md). */
export const EmailMarketingProvider = {
  Mailchimp: 'mailchimp',
  CampaignMonitor: 'campaign-monitor',
} as const;
export type EmailMarketingProvider = (typeof EmailMarketingProvider)[keyof typeof EmailMarketingProvider];

/** Names shown for the provider types (the spec names them by kind only). */
export const EMAIL_MARKETING_PROVIDER_LABELS: Record<EmailMarketingProvider, string> = {
  mailchimp: 'Mailchimp-type',
  'campaign-monitor': 'Campaign-Monitor-type',
};

export const EMPTY_EMAIL_MARKETING_SETTINGS: EmailMarketingSettings = {
  provider: 'mailchimp',
  listId: '',
  apiKey: '',
  templateId: '',
  replyTo: '',
  fromName: '',
  savedSegmentId: '',
  clientId: '',
  testEmailAddresses: '',
};

/**
 * What the settings answer in place of a stored provider API key (the key is write-only). Saved or sent
 * back as the key, it means "the stored one": the web shows it in the key field untouched.
 */
export const API_KEY_MASK = '••••••••';
/** A key as typed that names no new key: blank or the mask (the stored key stays, or is used). */
export const isKeptApiKey = (typed: string | undefined): boolean => {
  const v = typed?.trim() ?? '';
  return v === '' || v === API_KEY_MASK;
};

/**
 * The header a provider API key travels in where a spec call put it in the query (the subscriber count):
 * a URL is kept in request logs, proxies and browser history, a header is not (issue 34).
 */
export const PROVIDER_API_KEY_HEADER = 'X-Provider-Api-Key';
export const PROVIDER_KEY_IN_URL_MESSAGE =
  'a provider API key is not taken in the URL, where logs, proxies and browser history keep it: send it in ' +
  `the ${PROVIDER_API_KEY_HEADER} header, or leave it out to count with the stock's saved key`;

export const BOTH_KEYS_MESSAGE = 'You must define BOTH the product API Key and the email-marketing key';
export const TEST_SENT_MESSAGE = 'Test sent successfully.';
export const CAMPAIGN_CREATED_MESSAGE = 'Campaign created successfully.';

/** Spec section 9: Send To Subscribers only for lists of at most this many subscribers. */
export const SEND_TO_SUBSCRIBERS_LIMIT = 5;
export const sendToSubscribersLimitMessage = (count: number): string =>
  `Send To Subscribers is limited to lists of at most ${SEND_TO_SUBSCRIBERS_LIMIT} subscribers; this list has ${count}.`;

export const INVALID_SUBSCRIBER_EMAIL_MESSAGE = 'Please enter a valid email address.';
export const UNKNOWN_API_KEY_MESSAGE = 'Unknown API key.';
export const SUBSCRIBE_RATE_LIMITED_MESSAGE = 'Too many subscription attempts. Please try again later.';
export const CHECK_INBOX_MESSAGE = 'Thank you. Please check your inbox and confirm your subscription.';
export const SUBSCRIPTION_CONFIRMED_MESSAGE = 'Your subscription is confirmed.';
export const UNSUBSCRIBED_MESSAGE = 'You are unsubscribed and will receive no more announcements.';
export const PREFERENCES_SAVED_MESSAGE = 'Your preferences are saved.';
/** A preference page of an address that unsubscribed: it subscribes again on the company's site. */
export const PREFERENCES_OF_UNSUBSCRIBED_MESSAGE =
  "This address is unsubscribed: subscribe again on the company's website to choose what you receive.";

/** The choices of the preference page, as it names them. */
export const SUBSCRIPTION_PREFERENCE_LABELS: Record<SubscriptionPreference, string> = {
  all: 'Every announcement, as it is released',
  'price-sensitive': 'Price-sensitive announcements only',
};
/** How long an investor may pause the mails from the preference page, in weeks. */
export const PAUSE_WEEKS_CHOICES = [1, 2, 4, 8, 12] as const;
export const MAX_PAUSE_WEEKS = 12;
export const INVALID_LINK_MESSAGE = 'This link is not valid (it may have been used already or expired).';

/** Why an address is mailed no more (records.ts SuppressionReason), as the subscriber list says it. */
export const SUPPRESSION_REASON_LABELS: Record<SuppressionReason, string> = {
  'hard-bounce': 'Hard bounce',
  complaint: 'Spam complaint',
  'soft-bounce': 'Repeated soft bounces',
};

/**
 * The spam complaint rate the large mailbox providers hold bulk senders under (Gmail and Yahoo since 2024):
 * complaints per delivered mail, 0.3%. The deliverability panel draws it as a line.
 */
export const COMPLAINT_RATE_LIMIT = 0.003;
/** The days the deliverability panel shows by default, and at most. */
export const DELIVERABILITY_DAYS = 30;
export const DELIVERABILITY_MAX_DAYS = 90;
