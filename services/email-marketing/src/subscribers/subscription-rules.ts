// What a subscription decides without I/O: the address as stored, the subscribe rate limits, how long
// a confirmation link lives, and what the answers show of a subscriber. SubscribersRepository counts and
// stores; these decide.

import type { Subscriber, SubscriberCounts, SubscriberStatus, SubscriptionPreference } from '@irp/proto';
import type { ListedSubscriberRow, SubscriberRow } from './subscribers.repository';

/** Trimmed; the domain lower-cased (the local part is the mailbox owner's, kept as typed). */
export function normaliseEmail(value: string): string {
  const email = value.trim();
  const at = email.lastIndexOf('@');
  return at < 0 ? email : `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
}

/** Subscribe attempts within the rate window: by this address (any case), and from this IP. */
export interface SubscribeAttempts {
  byEmail: number;
  byIp: number;
}

/**
 * A subscribe is refused once the address or the IP has used its attempts in the window (so one person
 * cannot mail-bomb an address, nor one client sign up a list of strangers). The limit is the number
 * allowed: the attempt that would exceed it is refused.
 */
export const subscribeRateLimited = (
  attempts: SubscribeAttempts,
  limits: { perEmail: number; perIp: number },
): boolean => attempts.byEmail >= limits.perEmail || attempts.byIp >= limits.perIp;

/** When a confirmation link sent at `now` stops working. */
export const confirmTokenExpiry = (now: Date, ttlHours: number): Date =>
  new Date(now.getTime() + ttlHours * 3_600_000);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A subscriber as the Subscribers list answers it. */
export const toSubscriber = (r: ListedSubscriberRow): Subscriber => ({
  id: r.id,
  stockId: r.stockId,
  email: r.email,
  status: r.status,
  subscribedAt: r.subscribedAt.toISOString(),
  consentIp: r.consentIp,
  consentUserAgent: r.consentUserAgent,
  confirmedAt: iso(r.confirmedAt),
  unsubscribedAt: iso(r.unsubscribedAt),
  preference: r.preference,
  pausedUntil: iso(r.pausedUntil),
  suppressed: r.suppressedReason
    ? { reason: r.suppressedReason, since: iso(r.suppressedSince)!, detail: r.suppressedDetail ?? '' }
    : null,
});

/** How many of these subscribers stand in each state. */
export function subscriberCounts(rows: ReadonlyArray<Pick<SubscriberRow, 'status'>>): SubscriberCounts {
  const counts: SubscriberCounts = { pending: 0, confirmed: 0, unsubscribed: 0 };
  for (const r of rows) counts[r.status] += 1;
  return counts;
}

/** What a confirmation or unsubscribe link answers: the subscription's company and state. */
export interface SubscriptionOutcome {
  email: string;
  companyName: string;
  combinedTicker: string;
  status: SubscriberStatus;
  message: string;
  preference: SubscriptionPreference;
  /** Until when the mails are paused; null when they are not (any more). */
  pausedUntil: string | null;
}

/** What an unsubscribe link may show: the company and the state, not the address. */
export const withoutAddress = ({
  email: _email,
  ...rest
}: SubscriptionOutcome): Omit<SubscriptionOutcome, 'email'> => rest;

/** When a pause of `weeks` chosen at `now` ends; null for 0 (the pause ends now). */
export const pauseEnd = (now: Date, weeks: number): Date | null =>
  weeks > 0 ? new Date(now.getTime() + weeks * 7 * 86_400_000) : null;
