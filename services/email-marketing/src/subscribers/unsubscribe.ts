import { AppError, createLogger } from '@irp/platform';
import { INVALID_LINK_MESSAGE, UNSUBSCRIBED_MESSAGE } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SubscribersRepository } from './subscribers.repository';
import { SubscriptionOutcomes } from './subscription-outcomes';
import { SubscriptionOutcome, withoutAddress } from './subscription-rules';
import { UnsubscribeTokens } from './unsubscribe-tokens';

const log = createLogger('subscribers');

/** One-click unsubscribe (RFC 8058), from a mail's link or the page it opens. */
@Injectable()
export class Unsubscribe {
  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly outcomes: SubscriptionOutcomes,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  /** Idempotent: the first time is kept as the unsubscribe time. */
  async run(token: string): Promise<Omit<SubscriptionOutcome, 'email'>> {
    const row = await this.subscribers.unsubscribe(this.tokens.proofOf(token));
    if (!row) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    log.info({ stockId: row.stockId }, 'unsubscribed');
    return withoutAddress(await this.outcomes.of(row, UNSUBSCRIBED_MESSAGE));
  }
}
