// What a subscription decides without I/O: the address as stored, the subscribe rate limits, and how long
// a confirmation link lives. SubscribersRepository counts and stores; these decide.

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
