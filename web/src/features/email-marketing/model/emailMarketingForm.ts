import {
  API_KEY_MASK,
  BOTH_KEYS_MESSAGE,
  EMAIL_MARKETING_PROVIDER_LABELS,
  EMPTY_EMAIL_MARKETING_SETTINGS,
  EmailMarketingProvider,
  SEND_TO_SUBSCRIBERS_LIMIT,
  type EmailMarketingSettings,
  type EmailMarketingSettingsDto,
  type SaveEmailMarketingSettingsBody,
  type Subscriber,
  type SubscriberStatus,
  type TestSendBody,
} from '@irp/proto';

/** What the form holds: the settings as typed (spec section 3). */
export type EmailMarketingFormValues = EmailMarketingSettings;

export type TextField = Exclude<keyof EmailMarketingFormValues, 'provider'>;

/** The fields' labels, in the order the tab shows them. */
export const FIELD_LABELS: Record<TextField, string> = {
  listId: 'List ID',
  apiKey: 'API key',
  templateId: 'Template ID',
  replyTo: 'Reply to',
  fromName: 'From name',
  savedSegmentId: 'Saved segment ID',
  clientId: 'Client ID',
  testEmailAddresses: 'Test email addresses',
};

export const PROVIDER_OPTIONS: readonly { value: EmailMarketingProvider; label: string }[] = (
  Object.keys(EMAIL_MARKETING_PROVIDER_LABELS) as EmailMarketingProvider[]
).map((value) => ({ value, label: EMAIL_MARKETING_PROVIDER_LABELS[value] }));

export const isProvider = (value: string): value is EmailMarketingProvider =>
  PROVIDER_OPTIONS.some((option) => option.value === value);

/** Client ID belongs to the second provider type only (spec section 3). */
export const usesClientId = (provider: EmailMarketingProvider): boolean =>
  provider === EmailMarketingProvider.CampaignMonitor;

/**
 * The saved settings as form values; a stock with none saved yet starts blank on the first provider. The
 * API key is write-only: a stored one comes as API_KEY_MASK, which the field shows untouched and which,
 * saved or sent back, means the stored key.
 */
export function formValuesOf(
  settings: EmailMarketingSettingsDto | null | undefined,
): EmailMarketingFormValues {
  const from = settings ?? EMPTY_EMAIL_MARKETING_SETTINGS;
  return {
    provider: from.provider,
    listId: from.listId,
    apiKey: from.apiKey,
    templateId: from.templateId,
    replyTo: from.replyTo,
    fromName: from.fromName,
    savedSegmentId: from.savedSegmentId,
    clientId: from.clientId,
    testEmailAddresses: from.testEmailAddresses,
  };
}

/**
 * The settings as they are sent: trimmed, and without a client ID the chosen provider type does not use
 * (the field is hidden then, so a value left in it must not be saved or sent).
 */
export function settingsOf(values: EmailMarketingFormValues): EmailMarketingFormValues {
  return {
    provider: values.provider,
    listId: values.listId.trim(),
    apiKey: values.apiKey.trim(),
    templateId: values.templateId.trim(),
    replyTo: values.replyTo.trim(),
    fromName: values.fromName.trim(),
    savedSegmentId: values.savedSegmentId.trim(),
    clientId: usesClientId(values.provider) ? values.clientId.trim() : '',
    testEmailAddresses: values.testEmailAddresses.trim(),
  };
}

export function settingsChanged(saved: EmailMarketingFormValues, values: EmailMarketingFormValues): boolean {
  const a = settingsOf(saved);
  const b = settingsOf(values);
  return (Object.keys(a) as (keyof EmailMarketingFormValues)[]).some((key) => a[key] !== b[key]);
}

/** POST /api/emailMarketingSettings/ (spec section 7: StockId, Settings). */
export const saveBodyOf = (
  stockId: string,
  values: EmailMarketingFormValues,
): SaveEmailMarketingSettingsBody => ({
  StockId: stockId,
  Settings: settingsOf(values),
});

/** The key field holds a key typed here, not yet saved (neither blank nor the stored key's mask). */
export const isNewApiKey = (apiKey: string): boolean => {
  const key = apiKey.trim();
  return key !== '' && key !== API_KEY_MASK;
};

/**
 * POST /api/TestSendAnnouncement/sendTestEmail and /sendToSubscribers: spec section 7's body, whose `apiKey`
 * is the stock's product API key (it names the stock), and the settings as typed; a key typed here goes as
 * `emailMarketingApiKey`, the stored one (the mask) not at all (the server uses it). A product key the user
 * may not see (undefined: no ViewConfig) goes blank with the stock's id: the server uses the stored key.
 */
export function testSendBodyOf(
  stock: { id: string; productApiKey: string | null | undefined },
  values: EmailMarketingFormValues,
): TestSendBody {
  const { apiKey: emailMarketingApiKey, ...settings } = settingsOf(values);
  const hidden = stock.productApiKey === undefined;
  return {
    ...settings,
    apiKey: stock.productApiKey?.trim() ?? '',
    ...(hidden ? { stockId: stock.id } : {}),
    ...(emailMarketingApiKey === API_KEY_MASK ? {} : { emailMarketingApiKey }),
  };
}

/**
 * Spec section 5: the test and send actions need both the stock's product API key and the email-marketing
 * key; the message to show when one is missing, else null. An undefined product key is one the user may
 * not see (it needs ViewConfig on the stock, and the gateway leaves it out without): the server, which
 * checks the same rule, answers for it.
 */
export function missingKeysProblem(
  productApiKey: string | null | undefined,
  values: EmailMarketingFormValues,
) {
  const productKeyMissing = productApiKey !== undefined && !productApiKey?.trim();
  return productKeyMissing || !values.apiKey.trim() ? BOTH_KEYS_MESSAGE : null;
}

/** The count's query: never the key (a URL is logged and kept in histories); the server uses the stored one. */
export interface SubscriberCountArgs {
  stockId: string;
  provider: EmailMarketingProvider;
  listId: string;
  clientId: string;
}

/**
 * What the subscriber count asks with, or null while there is nothing to count with the stored key: the key
 * or the list blank, or a new key typed and not saved yet.
 */
export function subscriberCountArgsOf(
  stockId: string,
  values: Pick<EmailMarketingFormValues, 'provider' | 'apiKey' | 'listId' | 'clientId'>,
): SubscriberCountArgs | null {
  const listId = values.listId.trim();
  if (values.apiKey.trim() !== API_KEY_MASK || !listId) return null;
  const clientId = usesClientId(values.provider) ? values.clientId.trim() : '';
  return { stockId, provider: values.provider, listId, clientId };
}

/** The question asked before a send (spec section 5: confirmed first). */
export function confirmSendText(mode: 'test' | 'subscribers', values: EmailMarketingFormValues): string {
  if (mode === 'test') {
    const to = values.testEmailAddresses.trim() || 'the test email addresses';
    return `Create a campaign of the latest announcement and send it as a test to ${to}?`;
  }
  return (
    `Create a campaign of the latest announcement and send it to every subscriber of list ${values.listId.trim()}? ` +
    `Lists of more than ${SEND_TO_SUBSCRIBERS_LIMIT} subscribers are refused.`
  );
}

/** Spec section 9, shown beside Send To Subscribers. */
export const SEND_TO_SUBSCRIBERS_NOTE = `Admins only. Limited to lists of at most ${SEND_TO_SUBSCRIBERS_LIMIT} subscribers; larger lists are refused.`;

const counts = new Intl.NumberFormat('en-AU');

/** '1,234 subscribers', '1 subscriber'. */
export const subscriberCountText = (count: number): string =>
  `${counts.format(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`;

export const SUBSCRIBER_STATUS_LABELS: Record<SubscriberStatus, string> = {
  confirmed: 'Confirmed',
  pending: 'Pending',
  unsubscribed: 'Unsubscribed',
};

/** The order the counts and the chart show the statuses in. */
export const SUBSCRIBER_STATUSES: readonly SubscriberStatus[] = ['confirmed', 'pending', 'unsubscribed'];

/** Newest subscription first; each date parsed once, not twice per comparison (50,000 subscribers). */
export const bySubscribedNewestFirst = (subscribers: readonly Subscriber[]): Subscriber[] =>
  subscribers
    .map((subscriber) => ({ subscriber, at: Date.parse(subscriber.subscribedAt) }))
    .sort((a, b) => b.at - a.at)
    .map(({ subscriber }) => subscriber);

/** What the subscriber list can be narrowed to: everyone, a preference, the paused, the suppressed. */
export type SubscriberFilter = 'everyone' | 'all' | 'price-sensitive' | 'paused' | 'suppressed';

export const SUBSCRIBER_FILTER_LABELS: Record<SubscriberFilter, string> = {
  everyone: 'Everyone',
  all: 'Every announcement',
  'price-sensitive': 'Price-sensitive only',
  paused: 'Paused',
  suppressed: 'Suppressed',
};

/** Whether a subscriber is listed under `filter` at `now` (a preference: the confirmed who chose it). */
export function subscriberMatches(subscriber: Subscriber, filter: SubscriberFilter, now: number): boolean {
  switch (filter) {
    case 'everyone':
      return true;
    case 'paused':
      return !!subscriber.pausedUntil && Date.parse(subscriber.pausedUntil) > now;
    case 'suppressed':
      return !!subscriber.suppressed;
    default:
      return subscriber.status === 'confirmed' && subscriber.preference === filter;
  }
}
