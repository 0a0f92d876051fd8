import { AppError, pageOfRows } from '@irp/platform';
import {
  ErrorCode,
  INVALID_LINK_MESSAGE,
  Subscriber,
  SubscriberChoices,
  SubscriberCounts,
  UNSUBSCRIBED_MESSAGE,
} from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SubscribersRepository } from './subscribers.repository';
import { SubscriptionOutcomes } from './subscription-outcomes';
import { SubscriptionOutcome, subscriberCounts, toSubscriber, withoutAddress } from './subscription-rules';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/** A page asked after a subscriber the stock no longer has (a stale or altered `after`). */
export const SUBSCRIBERS_CHANGED_MESSAGE =
  'The subscribers changed since this list was read: reload the page to see them';

/** Subscriptions as the routes read them: a stock's list, and what an unsubscribe link is for. */
@Injectable()
export class SubscriberReads {
  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly outcomes: SubscriptionOutcomes,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  /**
   * Which company an unsubscribe link is for (the page asks before the click), without changing anything.
   * Not the address: a forwarded mail's link must not tell its reader whose it was.
   */
  async byUnsubscribeToken(token: string): Promise<Omit<SubscriptionOutcome, 'email'>> {
    const row = await this.subscribers.byUnsubscribeProof(this.tokens.proofOf(token));
    if (!row) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    return withoutAddress(
      await this.outcomes.of(row, row.status === 'unsubscribed' ? UNSUBSCRIBED_MESSAGE : ''),
    );
  }

  /**
   * A stock's subscribers newest first with its counts by status and its confirmed subscribers' choices:
   * every one, or with `page.limit` a page (after `page.after`, a previous page's `next`) and where the next
   * one starts.
   */
  async list(
    stockId: string,
    page: { limit?: number; after?: string } = {},
  ): Promise<{
    subscribers: Subscriber[];
    counts: SubscriberCounts;
    choices: SubscriberChoices;
    next: string | null;
  }> {
    const { limit, after } = page;
    const choices = await this.subscribers.choicesOf(stockId);
    if (limit === undefined) {
      const rows = await this.subscribers.ofStock(stockId);
      return { subscribers: rows.map(toSubscriber), counts: subscriberCounts(rows), choices, next: null };
    }
    // One more than the page: whether an older one follows.
    const rows = await this.subscribers.pageOfStock(stockId, { limit: limit + 1, after });
    if (!rows) throw new AppError(ErrorCode.NotFound, SUBSCRIBERS_CHANGED_MESSAGE);
    const listed = pageOfRows(rows, limit);
    const counts: SubscriberCounts = { pending: 0, confirmed: 0, unsubscribed: 0 };
    for (const { status, n } of await this.subscribers.countsOf(stockId)) counts[status] = n;
    return { subscribers: listed.rows.map(toSubscriber), counts, choices, next: listed.next };
  }
}
