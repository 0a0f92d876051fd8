import { AppError } from '@irp/platform';
import { INVALID_LINK_MESSAGE, SUBSCRIPTION_CONFIRMED_MESSAGE } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { tokenHash } from './confirm-tokens';
import { SubscribersRepository } from './subscribers.repository';
import { SubscriptionOutcomes } from './subscription-outcomes';
import type { SubscriptionOutcome } from './subscription-rules';

/** The confirmation link of a double opt-in. */
@Injectable()
export class ConfirmSubscription {
  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly outcomes: SubscriptionOutcomes,
  ) {}

  /** Once, within its time; the token is spent. */
  async run(token: string): Promise<SubscriptionOutcome> {
    const row = await this.subscribers.confirm(tokenHash(token));
    if (!row) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    return this.outcomes.of(row, SUBSCRIPTION_CONFIRMED_MESSAGE);
  }
}
