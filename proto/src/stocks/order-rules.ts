import type { ServiceOrder } from './orders';

/**
 * The service order rules both ends share (spec sections 2 "Order form", 4, 5, 9): the nine required
 * fields and their exact messages, the auto-send radio's effects, how an option card is titled, the
 * thank-you texts and the terms. No zod here: the web app bundles it whole.
 */

/** Spec section 5, in the form's order: each required field and its message. */
export const REQUIRED_ORDER_FIELDS = [
  ['companyName', 'Company Name Required'],
  ['ticker', 'Ticker/ASX Code Required'],
  ['website', 'Website Required'],
  ['address', 'Address Required'],
  ['contactName', 'Contact Name Required'],
  ['contactPhone', 'Contact Phone Required'],
  ['contactEmail', 'Contact Email Required'],
  ['abn', 'ABN Required'],
  ['authorisedBy', 'Authorised By Required'],
] as const;

export type RequiredOrderField = (typeof REQUIRED_ORDER_FIELDS)[number][0];

/**
 * The messages of every required field left out or blank, in the form's order (empty when the form may
 * be sent). Only presence is checked; no format check (spec section 5).
 */
export function missingOrderFieldMessages(
  form: Partial<Record<RequiredOrderField, string | null | undefined>>,
): string[] {
  return REQUIRED_ORDER_FIELDS.filter(([field]) => !(form[field] ?? '').trim()).map(([, message]) => message);
}

/** The order form's auto-send radio (spec section 2). */
export const AUTO_SEND_CHOICES = ['all', 'price_sensitive_only', 'manual'] as const;
export type AutoSendChoice = (typeof AUTO_SEND_CHOICES)[number];

export interface OrderSendFlags {
  sendPriceSensitiveAnnouncements: boolean;
  sendNonPriceSensitiveAnnouncements: boolean;
  autoSendAnnouncementEmail: boolean;
  autoSendNonPriceSensitiveAnnouncements: boolean;
}

/**
 * Spec section 4: any choice sets both send flags; 'all' also sets both auto-send flags,
 * 'price_sensitive_only' only autoSendAnnouncementEmail, 'manual' neither.
 */
export function sendFlagsOf(choice: AutoSendChoice): OrderSendFlags {
  return {
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: true,
    autoSendAnnouncementEmail: choice !== 'manual',
    autoSendNonPriceSensitiveAnnouncements: choice === 'all',
  };
}

/** Spec section 9: prices in AUD with no decimals. `price` is whole dollars. */
export const formatAud = (price: number): string => `$${Math.round(price).toLocaleString('en-AU')}`;

/** 'OPTION {n} - {price} + GST annual subscription' (spec section 2), n counting from 1. */
export const optionCardTitle = (n: number, price: number): string =>
  `OPTION ${n} - ${formatAud(price)} + GST annual subscription`;

export const ORDER_FORM_TEXTS = {
  submit: 'Submit Order Form',
  submitting: 'Submitting',
  submitted: 'Submitted',
  thanks: 'Thank you for your order',
  provisioning:
    'We will provision your service shortly and email you the API Key and development implementation details',
} as const;

/** Spec section 9's order form terms, as the form lists them. */
export const ORDER_FORM_TERMS: readonly string[] = [
  'ASX data and announcements are delayed by 20 minutes.',
  'The service is invoiced annually in advance.',
  'Payment is due within 7 days of the invoice date.',
  'The term is 12 months.',
];

/** Spec section 9's cancellation policy. */
export const ORDER_CANCELLATION_POLICY: readonly string[] = [
  'Cancellation requires written notice before the next billing cycle.',
  'At least the setup charges are payable on cancellation.',
];

/**
 * The staff page of a stock created from an order: the web app's /stocks/{combinedTicker} route (a
 * combinedTicker is letters, digits and one colon, so it needs no escaping, as the app's own links).
 */
export const stockPagePath = (combinedTicker: string): string => `/stocks/${combinedTicker}`;

export const serviceOrderNotFoundMessage = (id: string) => `Service order ${id} not found`;
/** GET /api/serviceorder/services/?groupId of a group with no options: the form says so (no other group's). */
export const unknownOptionGroupMessage = (groupId: string) =>
  `There is no order form ${groupId}: ask us for the link to your order form`;
export const serviceOrderAlreadyCreatedMessage = (combinedTicker: string) =>
  `This service order has already been created as ${combinedTicker}`;

/** What the staff mail about a new order says (sent as the system settings' staff mail). */
export function newOrderMail(order: ServiceOrder): { subject: string; message: string } {
  const option = order.option
    ? `${order.option.name} (${formatAud(order.option.price)} + GST)`
    : '(none chosen)';
  return {
    subject: `New service order: ${order.companyName} (${order.ticker})`,
    message: [
      `A new service order was placed on ${order.timestamp}.`,
      '',
      `Company: ${order.companyName}`,
      `Ticker/ASX code: ${order.ticker}`,
      `Website: ${order.website}`,
      `Option: ${option}`,
      `Contact: ${order.contactName}, ${order.contactPhone}, ${order.contactEmail}`,
      `ABN: ${order.abn}`,
      `Address: ${order.address}`,
      `Authorised by: ${order.authorisedBy}`,
      '',
      'Create its stock from the Orders page.',
    ].join('\n'),
  };
}

/**
 * The one answer (400) to an order without a valid form token (GET /api/serviceorder/form-token, fetched
 * when the form is shown), sent sooner than a person fills the form in after it, or hours after: the same
 * whichever it was, so a script learns no more than a person is told. The web form fetches a new token on
 * any refusal, so submitting again works.
 */
export const ORDER_FORM_TOKEN_MESSAGE =
  'The order form could not be accepted as sent (its form token was missing, not valid, expired, or sent ' +
  'sooner than a person fills the form in): please check your details and submit it again in a few seconds.';

// Zod-free (the web app bundles this module): the order form's address suggestions.
/** Shortest address input worth asking the address service about (shorter ones get no suggestions). */
export const MIN_ADDRESS_QUERY = 3;

/**
 * The note of `available: false` when the address service's budget is spent (the gateway's global budget
 * per minute and per day, or one autocomplete session's cap): the form then takes the address as typed.
 */
export const ADDRESS_SUGGESTIONS_PAUSED_MESSAGE =
  'Address suggestions are not available right now: please type the full address.';
