import { AppError, createLogger, SERVICE_CONFIG } from '@irp/platform';
import {
  ALREADY_SUBSCRIBED_MESSAGE,
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
import { DataSource } from 'typeorm';
import type { EmailMarketingConfig } from '../config';
import { Mailer } from '../mail/mailer';
import { subscriptionConfirmMail } from '../mail/templates';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.service';
import { subscriptionLinks } from './links';

const log = createLogger('subscribers');

interface SubscriberRow {
  id: string;
  stock_id: string;
  email: string;
  status: SubscriberStatus;
  subscribed_at: Date;
  consent_ip: string;
  consent_user_agent: string;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
  unsubscribe_token: string;
}

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

/** A token for a link: 32 random bytes, URL-safe. Only its hash is stored for confirmation links. */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Trimmed; the domain lower-cased (the local part is the mailbox owner's, kept as typed). */
export function normaliseEmail(value: string): string {
  const email = value.trim();
  const at = email.lastIndexOf('@');
  return at < 0 ? email : `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
}

export interface SubscriptionOutcome {
  email: string;
  companyName: string;
  combinedTicker: string;
  status: SubscriberStatus;
  message: string;
}

/**
 * Investors' subscriptions to a stock's announcements: double opt-in (a confirmation mail with a single-use
 * token; only confirmed subscribers receive announcements), consent evidence, one-click unsubscribe, and
 * rate limits per address and per IP (counted in Postgres, so every instance shares them).
 */
@Injectable()
export class SubscribersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stocks: StockProjectionService,
    private readonly mailer: Mailer,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async subscribe(input: { stockId: string; email: string; ip: string; userAgent: string }) {
    const email = normaliseEmail(input.email);
    if (!isEmailAddress(email)) throw new AppError('BAD_REQUEST', INVALID_SUBSCRIBER_EMAIL_MESSAGE);
    const stock = await this.stocks.get(input.stockId);
    const token = newToken();
    const outcome = await this.dataSource.transaction(
      async (m): Promise<SubscriberRow | 'confirmed' | 'rate-limited'> => {
        const windowMs = this.config.SUBSCRIBE_RATE_WINDOW_MS;
        const [counts]: Array<{ by_email: number; by_ip: number }> = await m.query(
          `SELECT count(*) FILTER (WHERE email = lower($1))::int AS by_email,
                count(*) FILTER (WHERE ip = $2)::int AS by_ip
         FROM email_marketing.subscribe_attempts
         WHERE at > now() - make_interval(secs => $3::float8 / 1000) AND (email = lower($1) OR ip = $2)`,
          [email, input.ip, windowMs],
        );
        if (
          counts.by_email >= this.config.SUBSCRIBE_MAX_PER_EMAIL ||
          counts.by_ip >= this.config.SUBSCRIBE_MAX_PER_IP
        ) {
          return 'rate-limited';
        }
        await m.query(`INSERT INTO email_marketing.subscribe_attempts (email, ip) VALUES (lower($1), $2)`, [
          email,
          input.ip,
        ]);
        const expires = new Date(Date.now() + this.config.CONFIRM_TOKEN_TTL_HOURS * 3_600_000);
        // A new address, or one that unsubscribed or never confirmed: pending again with a fresh token and
        // fresh consent evidence. A confirmed subscriber stays as it is.
        const rows: SubscriberRow[] = await m.query(
          `INSERT INTO email_marketing.subscribers (stock_id, email, status, consent_ip, consent_user_agent,
           confirm_token_hash, confirm_token_expires_at, unsubscribe_token)
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7)
         ON CONFLICT (stock_id, lower(email)) DO UPDATE SET
           status = 'pending', subscribed_at = now(), consent_ip = EXCLUDED.consent_ip,
           consent_user_agent = EXCLUDED.consent_user_agent, confirmed_at = NULL, unsubscribed_at = NULL,
           confirm_token_hash = EXCLUDED.confirm_token_hash, confirm_token_expires_at = EXCLUDED.confirm_token_expires_at
         WHERE email_marketing.subscribers.status <> 'confirmed'
         RETURNING *`,
          [stock.id, email, input.ip, input.userAgent.slice(0, 1000), tokenHash(token), expires, newToken()],
        );
        // No row back: the address is confirmed already (the update's WHERE left it alone).
        return rows.length ? rows[0] : 'confirmed';
      },
    );
    if (outcome === 'rate-limited') {
      log.warn({ stockId: stock.id, ip: input.ip }, 'subscribe attempts over the limit');
      throw new AppError('TOO_MANY_REQUESTS', SUBSCRIBE_RATE_LIMITED_MESSAGE);
    }
    if (outcome === 'confirmed') return { status: 'confirmed' as const, message: ALREADY_SUBSCRIBED_MESSAGE };
    await this.sendConfirmation(stock, outcome, token);
    return { status: 'pending' as const, message: CHECK_INBOX_MESSAGE };
  }

  private async sendConfirmation(stock: ProjectedStock, row: SubscriberRow, token: string) {
    const links = subscriptionLinks(this.config.PUBLIC_BASE_URL, row.unsubscribe_token);
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
    const rows: SubscriberRow[] = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.subscribers
       SET status = 'confirmed', confirmed_at = now(), confirm_token_hash = NULL, confirm_token_expires_at = NULL
       WHERE confirm_token_hash = $1 AND confirm_token_expires_at > now() AND status = 'pending'
       RETURNING *) SELECT * FROM changed`,
      [tokenHash(token)],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    return this.outcome(rows[0], SUBSCRIPTION_CONFIRMED_MESSAGE);
  }

  /** Who an unsubscribe link belongs to (the page shows it before the click), without changing anything. */
  async byUnsubscribeToken(token: string): Promise<SubscriptionOutcome> {
    const rows: SubscriberRow[] = await this.dataSource.query(
      `SELECT * FROM email_marketing.subscribers WHERE unsubscribe_token = $1`,
      [token],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    return this.outcome(rows[0], rows[0].status === 'unsubscribed' ? UNSUBSCRIBED_MESSAGE : '');
  }

  /** One-click unsubscribe (RFC 8058): idempotent; the first time is kept as the unsubscribe time. */
  async unsubscribe(token: string): Promise<SubscriptionOutcome> {
    const rows: SubscriberRow[] = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.subscribers
       SET status = 'unsubscribed', unsubscribed_at = COALESCE(unsubscribed_at, now()),
           confirm_token_hash = NULL, confirm_token_expires_at = NULL
       WHERE unsubscribe_token = $1
       RETURNING *) SELECT * FROM changed`,
      [token],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    log.info({ stockId: rows[0].stock_id }, 'unsubscribed');
    return this.outcome(rows[0], UNSUBSCRIBED_MESSAGE);
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
    const rows: SubscriberRow[] = await this.dataSource.query(
      `SELECT * FROM email_marketing.subscribers WHERE stock_id = $1 ORDER BY subscribed_at DESC, email`,
      [stockId],
    );
    const counts: SubscriberCounts = { pending: 0, confirmed: 0, unsubscribed: 0 };
    for (const r of rows) counts[r.status] += 1;
    return { subscribers: rows.map(toSubscriber), counts };
  }
}
