import {
  AppError,
  createLogger,
  DEFAULT_HANDLER_RETRY,
  HANDLER_RETRY_POLICY,
  HandlerRetryPolicy,
  retryTransient,
  SERVICE_CONFIG,
  UnitOfWork,
} from '@irp/platform';
import {
  CHECK_INBOX_MESSAGE,
  INVALID_SUBSCRIBER_EMAIL_MESSAGE,
  isEmailAddress,
  SUBSCRIBE_RATE_LIMITED_MESSAGE,
} from '@irp/proto';
import { BeforeApplicationShutdown, Inject, Injectable, Optional } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { Mailer } from '../mail/mailer';
import { subscriptionConfirmMail } from '../mail/templates';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import { newToken, tokenHash } from './confirm-tokens';
import { subscriptionLinks } from './links';
import { SubscriberRow, SubscribersRepository } from './subscribers.repository';
import { UnsubscribeTokens } from './unsubscribe-tokens';
import { confirmTokenExpiry, normaliseEmail, subscribeRateLimited } from './subscription-rules';

const log = createLogger('subscribers');

/**
 * An investor subscribes to a stock's announcements: double opt-in (a confirmation mail with a single-use
 * token; only confirmed subscribers receive announcements), consent evidence, and rate limits per address and
 * per IP (counted in Postgres, so every instance shares them).
 *
 * The reply comes before any work that depends on the address's standing (issue 34): whether it is new,
 * pending or confirmed decides an insert, an update or nothing, and a confirmation mail or none, so doing
 * that work before the reply would let the public widget's caller tell them apart by the time it takes.
 * Only what is the same for every address (its form, the stock, the rate limits) is done before the reply.
 */
@Injectable()
export class Subscribe implements BeforeApplicationShutdown {
  /** Subscriptions still being recorded and mailed after their reply; a shutdown waits for them. */
  private readonly afterReply = new Set<Promise<void>>();

  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly units: UnitOfWork,
    private readonly stocks: StockProjectionService,
    private readonly mailer: Mailer,
    private readonly tokens: UnsubscribeTokens,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
    @Optional()
    @Inject(HANDLER_RETRY_POLICY)
    private readonly policy: HandlerRetryPolicy = DEFAULT_HANDLER_RETRY,
  ) {}

  async run(input: {
    stockId: string;
    email: string;
    ip: string;
    userAgent: string;
    preference?: SubscriberRow['preference'];
  }) {
    const email = normaliseEmail(input.email);
    if (!isEmailAddress(email)) throw new AppError('BAD_REQUEST', INVALID_SUBSCRIBER_EMAIL_MESSAGE);
    const stock = await this.stocks.get(input.stockId);
    // Counted by address and IP alike whatever the address's standing: the same work for every address.
    const limited = await this.units.run(async (tx) => {
      const attempts = await this.subscribers.recentAttempts(
        tx,
        email,
        input.ip,
        this.config.SUBSCRIBE_RATE_WINDOW_MS,
      );
      const limits = {
        perEmail: this.config.SUBSCRIBE_MAX_PER_EMAIL,
        perIp: this.config.SUBSCRIBE_MAX_PER_IP,
      };
      if (subscribeRateLimited(attempts, limits)) return true;
      await this.subscribers.recordAttempt(tx, email, input.ip);
      return false;
    });
    if (limited) {
      log.warn({ stockId: stock.id, ip: input.ip }, 'subscribe attempts over the limit');
      throw new AppError('TOO_MANY_REQUESTS', SUBSCRIBE_RATE_LIMITED_MESSAGE);
    }
    const work = this.record(stock, email, input)
      .catch((err: unknown) => log.error({ err, stockId: stock.id }, 'subscription not recorded or mailed'))
      .finally(() => this.afterReply.delete(work));
    this.afterReply.add(work);
    // The same answer whether the address is new, pending or confirmed already (a confirmed one is sent
    // nothing): the public widget must not tell who subscribes to what.
    return { status: 'pending' as const, message: CHECK_INBOX_MESSAGE };
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.afterReply]);
  }

  /** The pending row (not for a confirmed address) and its confirmation mail; a transient failure is tried again. */
  private async record(
    stock: ProjectedStock,
    email: string,
    input: { ip: string; userAgent: string; preference?: SubscriberRow['preference'] },
  ): Promise<void> {
    const token = newToken();
    const row = await retryTransient(
      () =>
        this.units.run((tx) =>
          this.subscribers.upsertPending(tx, {
            stockId: stock.id,
            email,
            consentIp: input.ip,
            consentUserAgent: input.userAgent.slice(0, 1000),
            preference: input.preference ?? 'all',
            confirmTokenHash: tokenHash(token),
            confirmTokenExpiresAt: confirmTokenExpiry(new Date(), this.config.CONFIRM_TOKEN_TTL_HOURS),
          }),
        ),
      { policy: this.policy ?? DEFAULT_HANDLER_RETRY },
    );
    // No row back: the address is confirmed already (the update's WHERE left it alone).
    if (!row) return;
    await retryTransient(() => this.sendConfirmation(stock, row, token), {
      policy: this.policy ?? DEFAULT_HANDLER_RETRY,
    });
  }

  private async sendConfirmation(stock: ProjectedStock, row: SubscriberRow, token: string) {
    const links = subscriptionLinks(this.config.PUBLIC_BASE_URL, this.tokens.forSubscriber(row.id));
    await this.mailer.send(
      row.email,
      subscriptionConfirmMail({
        stock,
        confirmUrl: `${this.config.PUBLIC_BASE_URL}/subscription/confirm/${token}`,
        unsubscribeUrl: links.unsubscribeUrl,
        oneClickUrl: links.oneClickUrl,
        ttlHours: this.config.CONFIRM_TOKEN_TTL_HOURS,
      }),
    );
  }
}
