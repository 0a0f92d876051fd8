import { AppError, createLogger, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import {
  CHECK_INBOX_MESSAGE,
  INVALID_SUBSCRIBER_EMAIL_MESSAGE,
  isEmailAddress,
  SUBSCRIBE_RATE_LIMITED_MESSAGE,
} from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
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
 */
@Injectable()
export class Subscribe {
  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly units: UnitOfWork,
    private readonly stocks: StockProjectionService,
    private readonly mailer: Mailer,
    private readonly tokens: UnsubscribeTokens,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async run(input: { stockId: string; email: string; ip: string; userAgent: string }) {
    const email = normaliseEmail(input.email);
    if (!isEmailAddress(email)) throw new AppError('BAD_REQUEST', INVALID_SUBSCRIBER_EMAIL_MESSAGE);
    const stock = await this.stocks.get(input.stockId);
    const token = newToken();
    const outcome = await this.units.run(
      async (tx): Promise<SubscriberRow | 'confirmed' | 'rate-limited'> => {
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
        if (subscribeRateLimited(attempts, limits)) return 'rate-limited';
        await this.subscribers.recordAttempt(tx, email, input.ip);
        const row = await this.subscribers.upsertPending(tx, {
          stockId: stock.id,
          email,
          consentIp: input.ip,
          consentUserAgent: input.userAgent.slice(0, 1000),
          confirmTokenHash: tokenHash(token),
          confirmTokenExpiresAt: confirmTokenExpiry(new Date(), this.config.CONFIRM_TOKEN_TTL_HOURS),
        });
        // No row back: the address is confirmed already (the update's WHERE left it alone).
        return row ?? 'confirmed';
      },
    );
    if (outcome === 'rate-limited') {
      log.warn({ stockId: stock.id, ip: input.ip }, 'subscribe attempts over the limit');
      throw new AppError('TOO_MANY_REQUESTS', SUBSCRIBE_RATE_LIMITED_MESSAGE);
    }
    // The same answer whether the address is new, pending or confirmed already (a confirmed one is sent
    // nothing): the public widget must not tell who subscribes to what.
    if (outcome !== 'confirmed') await this.sendConfirmation(stock, outcome, token);
    return { status: 'pending' as const, message: CHECK_INBOX_MESSAGE };
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
