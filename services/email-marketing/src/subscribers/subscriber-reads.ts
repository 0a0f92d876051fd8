import { AppError } from '@irp/platform';
import { INVALID_LINK_MESSAGE, Subscriber, SubscriberCounts, UNSUBSCRIBED_MESSAGE } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SubscribersRepository } from './subscribers.repository';
import { SubscriptionOutcomes } from './subscription-outcomes';
import { SubscriptionOutcome, subscriberCounts, toSubscriber, withoutAddress } from './subscription-rules';
import { UnsubscribeTokens } from './unsubscribe-tokens';

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

  async list(stockId: string): Promise<{ subscribers: Subscriber[]; counts: SubscriberCounts }> {
    const rows = await this.subscribers.ofStock(stockId);
    return { subscribers: rows.map(toSubscriber), counts: subscriberCounts(rows) };
  }
}
