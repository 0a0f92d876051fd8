// What email-marketing decides about a stock's settings without I/O: their own validation (with messages
// naming the tab's fields), their stored form, whether they are set up, and how the routes show them (the
// key masked).

import {
  API_KEY_MASK,
  EMAIL_MARKETING_PROVIDER_LABELS,
  EmailMarketingSettings,
  EmailMarketingSettingsView,
  isEmailAddress,
  OrderEmailMarketing,
  splitEmailList,
} from '@irp/proto';

/** The settings' own rules, with messages naming the tab's fields. */
export function settingsProblem(settings: EmailMarketingSettings): string | undefined {
  if (settings.replyTo.trim() && !isEmailAddress(settings.replyTo.trim()))
    return `Invalid email address in reply to: ${settings.replyTo.trim()}`;
  const invalid = splitEmailList(settings.testEmailAddresses).find((e) => !isEmailAddress(e));
  if (invalid !== undefined) return `Invalid email address in test email addresses: ${invalid}`;
  return undefined;
}

/** Trimmed fields; the client id only belongs to the second provider type. */
export const normaliseSettings = (s: EmailMarketingSettings): EmailMarketingSettings => ({
  provider: s.provider,
  listId: s.listId.trim(),
  apiKey: s.apiKey.trim(),
  templateId: s.templateId.trim(),
  replyTo: s.replyTo.trim(),
  fromName: s.fromName.trim(),
  savedSegmentId: s.savedSegmentId.trim(),
  clientId: s.provider === 'campaign-monitor' ? s.clientId.trim() : '',
  testEmailAddresses: splitEmailList(s.testEmailAddresses).join(', '),
});

/**
 * The settings a prospective client gave on the order form, as the stock's settings: the form's service is
 * the provider; no saved segment or test addresses (the form has none). A reply-to address that is no
 * address (the public form does not check it) is left out, named in `dropped`, so the rest still applies
 * and the tab asks for it again.
 */
export function settingsOfOrder(order: OrderEmailMarketing): {
  settings: EmailMarketingSettings;
  dropped?: string;
} {
  const settings = normaliseSettings({
    provider: order.service,
    listId: order.listId,
    apiKey: order.apiKey,
    templateId: order.templateId,
    replyTo: order.replyTo,
    fromName: order.fromName,
    savedSegmentId: '',
    clientId: order.clientId,
    testEmailAddresses: '',
  });
  const problem = settingsProblem(settings);
  return problem ? { settings: { ...settings, replyTo: '' }, dropped: problem } : { settings };
}

/** Email marketing is set up for a stock when its provider key and list are saved (the dashboards' tick). */
export const isConfigured = (s: EmailMarketingSettings | null): boolean => !!s && !!s.apiKey && !!s.listId;

/**
 * Who a campaign reached, as its announcement's send history names it: the provider's list (a campaign's
 * recipients are the provider's, never known here).
 */
export const campaignAudience = (s: Pick<EmailMarketingSettings, 'provider' | 'listId'>): string =>
  `${EMAIL_MARKETING_PROVIDER_LABELS[s.provider]} list ${s.listId}`;

/** The settings as answered: the provider key write-only (masked, with whether one is stored). */
export const settingsView = (s: EmailMarketingSettings): EmailMarketingSettingsView => ({
  ...s,
  apiKey: s.apiKey ? API_KEY_MASK : '',
  apiKeySet: !!s.apiKey,
});
