import { z } from 'zod';
import { PageCursorSchema } from '../common/paging';
import { StockId } from '../common/session';
import {
  EmailMarketingProviderSchema,
  EmailMarketingSettingsViewSchema,
  SubscriberChoicesSchema,
  SubscriberCountsSchema,
  SubscriberSchema,
  SubscriberStatusSchema,
  SubscriptionPreferenceSchema,
  DeliverabilitySchema,
} from './records';
import {
  DELIVERABILITY_DAYS,
  DELIVERABILITY_MAX_DAYS,
  EMPTY_EMAIL_MARKETING_SETTINGS,
  isKeptApiKey,
  MAX_PAUSE_WEEKS,
  PROVIDER_KEY_IN_URL_MESSAGE,
} from './rules';

/**
 * REST shapes of the email routes (docs/api/email-marketing.md): spec section 7's email-marketing calls,
 * the system test email, and this portal's subscriber routes (widget subscribe, confirm, one-click
 * unsubscribe, the staff subscriber list). Shapes only; the rules and messages are the service's.
 */

const text = (max: number) =>
  z
    .string({ invalid_type_error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .optional()
    .transform((v) => v ?? '');

/** Settings as a form sends them: every field optional (blank), the provider type defaulting to the first. */
export const EmailMarketingSettingsInputSchema = z.object({
  provider: EmailMarketingProviderSchema.optional().transform(
    (v) => v ?? EMPTY_EMAIL_MARKETING_SETTINGS.provider,
  ),
  listId: text(100),
  apiKey: text(200),
  templateId: text(100),
  replyTo: text(320),
  fromName: text(200),
  savedSegmentId: text(100),
  clientId: text(100),
  testEmailAddresses: text(2000),
});

/**
 * GET /api/EmailMarketingSubscriberCount?listId&clientId&stockId. A key typed and not saved comes in the
 * PROVIDER_API_KEY_HEADER header (ProviderKeyHeaderSchema); left out, the stock's stored key is used. The
 * spec's `apiKey` query parameter is refused unless it names no key (blank, or the mask: the stored one).
 */
export const SubscriberCountQuerySchema = z.object({
  apiKey: text(200).refine(isKeptApiKey, PROVIDER_KEY_IN_URL_MESSAGE),
  listId: text(100),
  clientId: text(100),
  stockId: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(StockId.optional()),
  provider: EmailMarketingProviderSchema.optional(),
});
/** The PROVIDER_API_KEY_HEADER header of the subscriber count: a key as typed (absent: none). */
export const ProviderKeyHeaderSchema = text(200);
/** Failure is `success: false` with the provider's or the rule's message (shown in red). */
export const SubscriberCountResponseSchema = z.object({
  success: z.boolean(),
  count: z.number().int().nullable(),
  message: z.string(),
});
export type SubscriberCountResponseDto = z.infer<typeof SubscriberCountResponseSchema>;

/** GET /api/emailMarketingSettings/?id (the stock id). */
export const EmailMarketingSettingsQuerySchema = z.object({ id: StockId });

/**
 * GET and POST /api/emailMarketingSettings/: `settings` holds the stock id beside the fields; the API key is
 * write-only (API_KEY_MASK when one is stored, with `apiKeySet`). Saving the mask or a blank key keeps it.
 */
export const EmailMarketingSettingsDtoSchema = EmailMarketingSettingsViewSchema.extend({ stockId: StockId });
export type EmailMarketingSettingsDto = z.infer<typeof EmailMarketingSettingsDtoSchema>;
export const EmailMarketingSettingsResponseSchema = z.object({
  success: z.boolean(),
  settings: EmailMarketingSettingsDtoSchema.nullable(),
  errorMessage: z.string().nullable(),
});
export type EmailMarketingSettingsResponseDto = z.infer<typeof EmailMarketingSettingsResponseSchema>;

/** POST /api/emailMarketingSettings/ body (spec: StockId, Settings). */
export const SaveEmailMarketingSettingsBodySchema = z.object({
  StockId,
  Settings: EmailMarketingSettingsInputSchema,
});
export type SaveEmailMarketingSettingsBody = z.input<typeof SaveEmailMarketingSettingsBodySchema>;

/** A field a client may leave out: absent stays absent (the saved value is used), '' is blank as typed. */
const typed = (max: number) =>
  z.string({ invalid_type_error: 'must be text' }).max(max, `must be at most ${max} characters`).optional();

/**
 * POST /api/TestSendAnnouncement/sendTestEmail and /sendToSubscribers, as spec section 7 sends it: apiKey,
 * listId, templateId, replyTo, fromName, clientId, testEmailAddresses. `apiKey` is the stock's product API
 * key and names the stock (a blank one answers 400 with BOTH_KEYS_MESSAGE); the rest are the stock's
 * email-marketing settings as typed on the tab. The email-marketing key is not in the spec's body: it is the
 * stock's saved one, or `emailMarketingApiKey` when given (this portal's addition: the key as typed, not yet
 * saved). `provider` and `savedSegmentId` are additions too; any settings field left out is the saved one.
 * `stockId` (an addition) names the stock when `apiKey` is blank: a TestSendAnnouncement holder without
 * ViewConfig never sees the product key, so the server uses the stock's stored one.
 */
export const TestSendBodySchema = z.object({
  apiKey: typed(200).transform((v) => v?.trim() ?? ''),
  listId: typed(100),
  templateId: typed(100),
  replyTo: typed(320),
  fromName: typed(200),
  clientId: typed(100),
  testEmailAddresses: typed(2000),
  emailMarketingApiKey: typed(200),
  provider: EmailMarketingProviderSchema.optional(),
  savedSegmentId: typed(100),
  stockId: StockId.optional(),
});
export type TestSendBody = z.input<typeof TestSendBodySchema>;
export const TestSendResponseSchema = z.object({
  errorMessage: z.string().nullable(),
  previewUrl: z.string().nullable(),
  /** 'Test sent successfully.' or 'Campaign created successfully.'; null on failure. */
  message: z.string().nullable(),
});
export type TestSendResponseDto = z.infer<typeof TestSendResponseSchema>;

/** POST /api/admin/sendEmail (the system settings' test email). */
export const SendSystemEmailBodySchema = z.object({ email: text(2000) });
export const SendSystemEmailResponseSchema = z.object({
  success: z.boolean(),
  errorMessage: z.string().nullable(),
});

/** POST /api/widget/subscribe?apiKey: an investor's subscription from the company's IR site. */
export const WidgetSubscribeBodySchema = z.object({
  email: text(400),
  /** The subscribe form's choice: every announcement (the default) or price-sensitive ones only. */
  preference: SubscriptionPreferenceSchema.optional(),
});
/** The same answer for a new, a pending and a confirmed address (no enumeration). */
export const WidgetSubscribeResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('pending'),
  message: z.string(),
});

/** POST /api/subscription/confirm/{token} (the unsubscribe link's answers leave the address out). */
export const SubscriptionResponseSchema = z.object({
  success: z.literal(true),
  email: z.string(),
  companyName: z.string(),
  combinedTicker: z.string(),
  status: SubscriberStatusSchema,
  message: z.string(),
  /** What the subscriber chose to be mailed, and until when the mails are paused (null: not paused). */
  preference: SubscriptionPreferenceSchema,
  pausedUntil: z.string().datetime().nullable(),
});
export type SubscriptionResponseDto = z.infer<typeof SubscriptionResponseSchema>;

/** GET and POST /api/subscription/unsubscribe/{token}: the company, never the address. */
export const UnsubscribeResponseSchema = SubscriptionResponseSchema.omit({ email: true });
export type UnsubscribeResponseDto = z.infer<typeof UnsubscribeResponseSchema>;

/**
 * GET /api/admin/subscribers?combinedTicker: a stock's newest SUBSCRIBER_PAGE_SIZE subscribers with their
 * status, for staff, and its counts by status; `&after={next}` the SUBSCRIBER_PAGE_MAX after them
 * (common/paging.ts).
 */
export const SubscribersQuerySchema = z.object({
  combinedTicker: z.string().min(1).max(40),
  after: PageCursorSchema.optional(),
});
export const SubscribersResponseSchema = z.object({
  subscribers: z.array(SubscriberSchema),
  counts: SubscriberCountsSchema,
  choices: SubscriberChoicesSchema,
  /** The next page's `after`, or null when this page holds the oldest. */
  next: PageCursorSchema.nullable(),
});
export type SubscribersResponseDto = z.infer<typeof SubscribersResponseSchema>;

/**
 * POST /api/subscription/preferences/{token}: what to be mailed, and a pause of `pauseWeeks` weeks from now
 * (0 ends a pause; absent leaves it as it is). The answer is the unsubscribe link's (never the address).
 */
export const PreferencesBodySchema = z.object({
  preference: SubscriptionPreferenceSchema,
  pauseWeeks: z.number().int().min(0).max(MAX_PAUSE_WEEKS).optional(),
});

/** `{token}` of the confirm and unsubscribe links. */
export const TokenParamsSchema = z.object({ token: z.string().min(16).max(200) });

/** POST /api/subscription/unsubscribe/{token}: RFC 8058's one-click form body (any other fields ignored). */
export const OneClickBodySchema = z
  .object({ 'List-Unsubscribe': z.string().max(50).optional() })
  .passthrough();

/**
 * GET /api/emailMarketing/deliverability?stockId&days: the stock's announcement mail per Sydney day (sent,
 * accepted, bounced, complained, unsubscribed), the complaint rate and the latest alert latencies.
 */
export const DeliverabilityQuerySchema = z.object({
  stockId: StockId,
  days: z.coerce.number().int().min(1).max(DELIVERABILITY_MAX_DAYS).default(DELIVERABILITY_DAYS),
});
export const DeliverabilityResponseSchema = DeliverabilitySchema;
export type DeliverabilityResponseDto = z.infer<typeof DeliverabilityResponseSchema>;
