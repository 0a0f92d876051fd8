import { AppError, createLogger, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import {
  CHECK_INBOX_MESSAGE,
  INVALID_LINK_MESSAGE,
  INVALID_SUBSCRIBER_EMAIL_MESSAGE,
  isEmailAddress,
  Subscriber,
  SubscriberCounts,
  SubscriberStatus,
  SUBSCRIBE_RATE_LIMITED_MESSAGE,
  SUBSCRIPTION_CONFIRMED_MESSAGE,
  UNSUBSCRIBED_MESSAGE,
} from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { EmailMarketingConfig } from '../config';
import { Mailer } from '../mail/mailer';
import { subscriptionConfirmMail } from '../mail/templates';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import { subscriptionLinks } from './links';
import { SubscriberRow, SubscribersRepository } from './subscribers.repository';
import { UnsubscribeTokens } from './unsubscribe-tokens';
import { confirmTokenExpiry, normaliseEmail, subscribeRateLimited } from './subscription-rules';

const log = createLogger('subscribers');

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toSubscriber = (r: SubscriberRow): Subscriber => ({
  id: r.id,
  stockId: r.stock_id,
  email: r.email,
  status: r.status,
  subscribedAt: r.subscribed_at.toISOString(),
  consentIp: r.consent_ip,
  consentUserAgent: r.consent_user_agent,
  confirmedAt: iso(r.confirmed_at),
  unsubscribedAt: iso(r.unsubscribed_at),
});

/** A confirmation link's token: 32 random bytes, URL-safe; only its hash is stored. */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface SubscriptionOutcome {
  email: string;
  companyName: string;
  combinedTicker: string;
  status: SubscriberStatus;
  message: string;
}

/** What an unsubscribe link may show: the company and the state, not the address. */
const withoutAddress = (o: SubscriptionOutcome): Omit<SubscriptionOutcome, 'email'> => ({
  companyName: o.companyName,
  combinedTicker: o.combinedTicker,
  status: o.status,
  message: o.message,
});

/**
 * Investors' subscriptions to a stock's announcements: double opt-in (a confirmation mail with a single-use
 * token; only confirmed subscribers receive announcements), consent evidence, one-click unsubscribe, and
 * rate limits per address and per IP (counted in Postgres, so every instance shares them).
 */
@Injectable()
export class SubscribersService {
  constructor(
    private readonly subscribers: SubscribersRepository,
    private readonly units: UnitOfWork,
    private readonly stocks: StockProjectionService,
    private readonly mailer: Mailer,
    private readonly tokens: UnsubscribeTokens,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async subscribe(input: { stockId: string; email: string; ip: string; userAgent: string }) {
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

  /** The confirmation link: once, within its time; the token is spent. */
  async confirm(token: string): Promise<SubscriptionOutcome> {
    const row = await this.subscribers.confirm(tokenHash(token));
    if (!row) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    return this.outcome(row, SUBSCRIPTION_CONFIRMED_MESSAGE);
  }

  /**
   * Which company an unsubscribe link is for (the page asks before the click), without changing anything.
   * Not the address: a forwarded mail's link must not tell its reader whose it was.
   */
  async byUnsubscribeToken(token: string): Promise<Omit<SubscriptionOutcome, 'email'>> {
    const row = await this.subscribers.byUnsubscribeProof(this.tokens.proofOf(token));
    if (!row) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    return withoutAddress(await this.outcome(row, row.status === 'unsubscribed' ? UNSUBSCRIBED_MESSAGE : ''));
  }

  /** One-click unsubscribe (RFC 8058): idempotent; the first time is kept as the unsubscribe time. */
  async unsubscribe(token: string): Promise<Omit<SubscriptionOutcome, 'email'>> {
    const row = await this.subscribers.unsubscribe(this.tokens.proofOf(token));
    if (!row) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    log.info({ stockId: row.stock_id }, 'unsubscribed');
    return withoutAddress(await this.outcome(row, UNSUBSCRIBED_MESSAGE));
  }

  private async outcome(row: SubscriberRow, message: string): Promise<SubscriptionOutcome> {
    const stock = await this.stocks.byId(row.stock_id);
    return {
      email: row.email,
      companyName: stock?.companyName ?? '',
      combinedTicker: stock?.combinedTicker ?? '',
      status: row.status,
      message,
    };
  }

  async list(stockId: string): Promise<{ subscribers: Subscriber[]; counts: SubscriberCounts }> {
    const rows = await this.subscribers.ofStock(stockId);
    const counts: SubscriberCounts = { pending: 0, confirmed: 0, unsubscribed: 0 };
    for (const r of rows) counts[r.status] += 1;
    return { subscribers: rows.map(toSubscriber), counts };
  }
}
