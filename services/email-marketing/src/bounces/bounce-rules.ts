// What a bounce or a complaint means for an address, without I/O: the kind of a failure from its status
// (RFC 3463's enhanced codes), and when an address is suppressed. Suppressions and mail events are stored by
// SuppressionsRepository; these decide.

import type { SuppressionReason } from '@irp/proto';

/** What the receiving side reported about one mail. */
export type MailEventKind = SuppressionReason;

/** Where a report came from: a DSN to the return path, an ARF feedback report, or the SMTP reply itself. */
export type MailEventSource = 'dsn' | 'arf' | 'smtp';

const ENHANCED = /(?:^|[\s;:(<-])([245])\.(\d{1,3})\.(\d{1,3})(?=$|[\s;:)>,.])/;

/** The enhanced status code in a DSN's Status or an SMTP reply ("550 5.1.1 <x>: user unknown"), if any. */
export function enhancedStatusOf(text: string | undefined): string | undefined {
  const m = ENHANCED.exec(text ?? '');
  return m ? `${m[1]}.${m[2]}.${m[3]}` : undefined;
}

/**
 * A permanent failure of the address itself (the mailbox or its domain does not exist, or is disabled: 5.1.x,
 * 5.2.1) is a hard bounce: mailing it again can only hurt the sender's reputation. Anything else that failed
 * (a full mailbox, a policy refusal, a delay that ran out, a reply without an enhanced code) is a soft bounce:
 * the address is given up on only when it keeps failing (`softBouncesSuppress`).
 */
export function bounceKindOf(status: string | undefined): 'hard-bounce' | 'soft-bounce' {
  const code = enhancedStatusOf(status);
  if (!code) return 'soft-bounce';
  const [cls, subject, detail] = code.split('.');
  if (cls !== '5') return 'soft-bounce';
  return subject === '1' || (subject === '2' && detail === '1') ? 'hard-bounce' : 'soft-bounce';
}

/**
 * ARF feedback types (RFC 5965) that are a recipient's complaint; `not-spam` and `auth-failure` reports are
 * not about the recipient's wishes.
 */
export const isComplaintFeedback = (feedbackType: string | undefined): boolean =>
  ['abuse', 'fraud', 'virus', 'other'].includes((feedbackType ?? 'abuse').trim().toLowerCase());

/** Whether an event suppresses its address at once: a hard bounce or a complaint does. */
export const suppressesAtOnce = (kind: MailEventKind): boolean => kind !== 'soft-bounce';

/** Whether an address's soft bounces within the window (of distinct mails, this one counted) suppress it. */
export const softBouncesSuppress = (softBounces: number, limit: number): boolean => softBounces >= limit;

/** The detail kept with a suppression after repeated soft bounces. */
export const softBounceDetail = (softBounces: number, windowDays: number, last: string): string =>
  `${softBounces} soft bounces within ${windowDays} days; the last: ${last}`;
