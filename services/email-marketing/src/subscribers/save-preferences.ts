import { AppError, createLogger } from '@irp/platform';
import {
  ErrorCode,
  INVALID_LINK_MESSAGE,
  PREFERENCES_OF_UNSUBSCRIBED_MESSAGE,
  PREFERENCES_SAVED_MESSAGE,
  RequestOf,
  Topics,
} from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SubscribersRepository } from './subscribers.repository';
import { SubscriptionOutcomes } from './subscription-outcomes';
import { pauseEnd, SubscriptionOutcome, withoutAddress } from './subscription-rules';
import { UnsubscribeTokens } from './unsubscribe-tokens';

const log = createLogger('subscribers');

/**
 * The preference page's save (issue 36): every announcement or the price-sensitive ones only, and a pause of
 * some weeks (0 ends it). The token of any of the subscriber's mails is the proof; the change applies to the
 * next send. An unsubscribed address is refused (it subscribes again, with a new opt-in, on the company's site).
 */
@Injectable()
export class SavePreferences {
  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly outcomes: SubscriptionOutcomes,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  async run(
    req: Pick<RequestOf<typeof Topics.EmailMarketingSavePreferences>, 'token' | 'preference' | 'pauseWeeks'>,
  ): Promise<Omit<SubscriptionOutcome, 'email'>> {
    const proof = this.tokens.proofOf(req.token);
    const pausedUntil = req.pauseWeeks === undefined ? undefined : pauseEnd(new Date(), req.pauseWeeks);
    const row = await this.subscribers.savePreferences(proof, req.preference, pausedUntil);
    if (!row) {
      const known = await this.subscribers.byUnsubscribeProof(proof);
      if (!known) throw new AppError(ErrorCode.NotFound, INVALID_LINK_MESSAGE);
      throw new AppError(ErrorCode.Conflict, PREFERENCES_OF_UNSUBSCRIBED_MESSAGE);
    }
    log.info(
      { stockId: row.stockId, preference: row.preference, paused: !!row.pausedUntil },
      'preferences saved',
    );
    return withoutAddress(await this.outcomes.of(row, PREFERENCES_SAVED_MESSAGE));
  }
}
