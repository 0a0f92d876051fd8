import {
  DEFAULT_EXCHANGE,
  foreignOptionMessage,
  ORDER_KEY_GIVEN,
  ServiceOption,
  ServiceOptionGroup,
  ServiceOrder,
  StockFields,
} from '@irp/proto';
import type { ServiceOptionGroupEntity } from './service-option-group.entity';
import type { ServiceOptionEntity } from './service-option.entity';
import type { ServiceOrderEntity, StoredOrderedOption } from './service-order.entity';

/**
 * The service order rules (pure): how options and orders read in the API, and which stock an order
 * becomes. The order form's presence rule and texts are proto's (order-rules.ts), shared with the web app.
 */

/** Whole dollars of a price kept in cents (prices are whole AUD; spec section 9). */
export const dollarsOf = (cents: number | string): number => Math.round(Number(cents) / 100);
export const centsOf = (dollars: number): number => Math.round(dollars * 100);

export function toServiceOption(e: ServiceOptionEntity): ServiceOption {
  return {
    id: e.id,
    groupId: e.groupId,
    name: e.name,
    price: dollarsOf(e.priceCents),
    lineItems: [...e.lineItems],
    isDefault: e.isDefault,
  };
}

/** A group as staff read it, with its options (in card order). */
export function toServiceOptionGroup(
  g: ServiceOptionGroupEntity,
  options: readonly ServiceOptionEntity[],
): ServiceOptionGroup {
  return {
    id: g.id,
    name: g.name,
    isDefault: g.isDefault,
    archived: g.archivedAt !== null,
    options: [...options].sort((a, b) => a.position - b.position).map(toServiceOption),
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  };
}

/**
 * An edit may keep an option's id only for the group's own options (an id of another group's option, or a
 * made-up one, is refused rather than taken over); each given id once.
 */
export function foreignOptionProblems(
  options: readonly { id?: string | null }[],
  ownIds: readonly string[],
): string[] {
  const own = new Set(ownIds);
  const seen = new Set<string>();
  const problems: string[] = [];
  options.forEach((o, i) => {
    if (!o.id) return;
    if (!own.has(o.id) || seen.has(o.id)) problems.push(foreignOptionMessage(i + 1));
    seen.add(o.id);
  });
  return problems;
}

/** The option as the order keeps it. */
export const orderedOptionOf = (e: ServiceOptionEntity): StoredOrderedOption => ({
  name: e.name,
  priceCents: Number(e.priceCents),
  lineItems: [...e.lineItems],
});

/** An order as staff read it; `combinedTicker` is its stock's (null until created). */
export function toServiceOrder(e: ServiceOrderEntity, combinedTicker: string | null): ServiceOrder {
  return {
    id: e.id,
    timestamp: e.timestamp.toISOString(),
    companyName: e.companyName,
    ticker: e.ticker,
    reference: e.reference,
    option: e.option
      ? { name: e.option.name, price: dollarsOf(e.option.priceCents), lineItems: e.option.lineItems }
      : null,
    authorisedBy: e.authorisedBy,
    website: e.website,
    address: e.address,
    contactName: e.contactName,
    contactPhone: e.contactPhone,
    contactEmail: e.contactEmail,
    abn: e.abn,
    listingDate: e.listingDate,
    confirmationEmail: e.confirmationEmail,
    sendPriceSensitiveAnnouncements: e.sendPriceSensitiveAnnouncements,
    sendNonPriceSensitiveAnnouncements: e.sendNonPriceSensitiveAnnouncements,
    autoSendAnnouncementEmail: e.autoSendAnnouncementEmail,
    autoSendNonPriceSensitiveAnnouncements: e.autoSendNonPriceSensitiveAnnouncements,
    emailMarketing: e.emailMarketing,
    isCreated: e.stockId !== null,
    combinedTicker: e.stockId === null ? null : combinedTicker,
  };
}

/**
 * The stock an order becomes (the stocks rules then check and store it): the ticker and accounting
 * reference staff gave, on ASX, with the order's company name, website, contact and confirmation emails
 * and its four send / auto-send flags.
 */
export function stockFieldsOfOrder(
  order: Pick<
    ServiceOrderEntity,
    | 'companyName'
    | 'website'
    | 'contactEmail'
    | 'confirmationEmail'
    | 'sendPriceSensitiveAnnouncements'
    | 'sendNonPriceSensitiveAnnouncements'
    | 'autoSendAnnouncementEmail'
    | 'autoSendNonPriceSensitiveAnnouncements'
  >,
  ticker: string,
  reference: string,
): StockFields {
  return {
    ticker,
    exchange: DEFAULT_EXCHANGE,
    companyName: order.companyName,
    websiteUrl: order.website,
    contactEmail: order.contactEmail,
    confirmationEmail: order.confirmationEmail,
    sendPriceSensitiveAnnouncements: order.sendPriceSensitiveAnnouncements,
    sendNonPriceSensitiveAnnouncements: order.sendNonPriceSensitiveAnnouncements,
    autoSendAnnouncementEmail: order.autoSendAnnouncementEmail,
    autoSendNonPriceSensitiveAnnouncements: order.autoSendNonPriceSensitiveAnnouncements,
    accountingReference: reference,
  };
}

/**
 * An order as it leaves the service (the event, the staff reads): the client's email-marketing API key is not
 * sent on, only whether one was given (it is sealed for the email-marketing service, issue 34).
 */
export function withoutSecrets(order: ServiceOrder): ServiceOrder {
  if (!order.emailMarketing) return order;
  return {
    ...order,
    emailMarketing: { ...order.emailMarketing, apiKey: order.emailMarketing.apiKey ? ORDER_KEY_GIVEN : '' },
  };
}
