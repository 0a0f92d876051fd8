import { z } from 'zod';
import { refineVendorUrls, sealKeyVariable, secretsKeyVariable, vendorUrl } from '@irp/platform';
import {
  alignsWith,
  dkimTxtRecord,
  isDkimDomain,
  isDkimSelector,
  parseDkimPrivateKey,
  type DkimKey,
} from './mail/dkim';
import { DEV_DKIM_PRIVATE_KEY, DEV_DKIM_SELECTOR } from './mail/dkim-development-key';
import { isPlainAddress, parseMailbox } from './mail/mime';
import { DEV_UNSUBSCRIBE_LINK_SECRET } from './subscribers/unsubscribe-tokens';

/** The email-marketing service's own variables (the platform's are added by defineService). */
export const emailMarketingConfigSchema = z.object({
  /** The SMTP server every mail goes to (`make up`: maildev; tests: an in-process smtp-server). */
  SMTP_URL: z
    .string()
    .default('smtp://127.0.0.1:1025')
    .refine(
      (v) => /^smtps?:\/\/[^/]+/.test(v),
      'SMTP_URL must be smtp://host:port or smtps://user:pass@host:port',
    ),
  /**
   * Whether mail to a non-local SMTP server must go over TLS (STARTTLS, or smtps://): default true, so a
   * server that offers no STARTTLS is refused rather than sent the mail in clear. Local servers (maildev, a
   * test sink on 127.0.0.1) are never asked for TLS.
   */
  SMTP_REQUIRE_TLS: z
    .enum(['true', 'false'], { message: "SMTP_REQUIRE_TLS must be 'true' or 'false'" })
    .default('true')
    .transform((v) => v === 'true'),
  /** Connections of the pooled SMTP transport (and so the most mails in flight per sender). */
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(5),
  /** The From address of every mail. */
  MAIL_FROM: z
    .string()
    .default('IR Portal <announcements@irportal.local>')
    .refine(
      (value) => {
        try {
          return isPlainAddress(parseMailbox(value).address);
        } catch {
          return false;
        }
      },
      { message: 'must be one address like "IR Portal <announcements@example.com>"' },
    ),
  /**
   * The DKIM key every mail is signed with (RSA, PEM; `\n` escapes are read as newlines): its public half is
   * published at `<DKIM_SELECTOR>._domainkey.<DKIM_DOMAIN>` (`npm run dkim-key -- <domain>` makes a key
   * and prints its TXT record). Required in production; elsewhere the published development key.
   */
  DKIM_PRIVATE_KEY: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (!value?.trim()) return;
      try {
        parseDkimPrivateKey(value);
      } catch (err) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `not a usable DKIM key: ${(err as Error).message}`,
        });
      }
    }),
  /** The DKIM selector (s=): required in production with the key; `irportal-dev` with the development key. */
  DKIM_SELECTOR: z
    .string()
    .optional()
    .refine((v) => !v || isDkimSelector(v), 'must be a DNS label or labels, like "irp2026"'),
  /**
   * The signing domain (d=): MAIL_FROM's domain by default; a parent of it also aligns (DMARC relaxed
   * alignment), any other domain does not and is refused.
   */
  DKIM_DOMAIN: z
    .string()
    .optional()
    .transform((v) => v?.trim().toLowerCase() || undefined)
    .refine((v) => !v || isDkimDomain(v), 'must be a domain name, like "example.com"'),
  /**
   * The domain of the return path every delivery's mail goes out with, `bounces+<token>@<BOUNCE_DOMAIN>`
   * (VERP: a bounce names its delivery), and of the complaints mailbox `complaints@<BOUNCE_DOMAIN>` that
   * mailbox providers' feedback loops report to. Its MX points at the `bounces` role's SMTP listener. MAIL_FROM's
   * domain by default; a subdomain or a parent of it (SPF's relaxed alignment under DMARC), any other is refused.
   */
  BOUNCE_DOMAIN: z
    .string()
    .optional()
    .transform((v) => v?.trim().toLowerCase() || undefined)
    .refine((v) => !v || isDkimDomain(v), 'must be a domain name, like "bounces.example.com"'),
  /** The port of the `bounces` role's SMTP listener (its MX's; 0: any free port, for tests). */
  BOUNCE_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  /** The largest report the listener takes (a DSN or an ARF report with the original mail in it). */
  BOUNCE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(10_000)
    .default(2 * 1024 * 1024),
  /** Soft bounces (of distinct mails) within SOFT_BOUNCE_WINDOW_DAYS after which an address is suppressed. */
  SOFT_BOUNCE_LIMIT: z.coerce.number().int().min(1).max(100).default(3),
  SOFT_BOUNCE_WINDOW_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Where the web app is reached: links in mails (confirm, unsubscribe, PDFs). */
  PUBLIC_BASE_URL: z
    .string()
    .default('http://127.0.0.1:3000')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Override of the Mailchimp-type API base (the stand-in); else from the key's data centre. */
  MAILCHIMP_BASE_URL: vendorUrl('MAILCHIMP_BASE_URL'),
  /** Override of the Campaign-Monitor-type API base (the stand-in). */
  CAMPAIGN_MONITOR_BASE_URL: vendorUrl('CAMPAIGN_MONITOR_BASE_URL'),
  /** A provider call slower than this fails (and is retried with backoff). */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * Mails one sender has in flight at once, from SMTP until their `sent` mark is written (at most the pool's
   * connections are on SMTP; the others wait for a connection or for their mark): the most mails a sender killed
   * mid-send can leave sent but unmarked, so the most that can go twice (ADR 0008, 0010). 20 (issue 35: 10 left
   * the connections idle while half the slots waited for marks).
   */
  SEND_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * How long a claim made by an earlier version of the sender (one without an owner number) is kept before
   * another sender may take it. A claim with an owner never expires: it is taken over when its owner's process
   * is gone (CLAIM_TAKEOVER_INTERVAL_MS), never from a living one, however slow.
   */
  DELIVERY_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How often a sender (one at a time) looks for claims whose sender died, takes them over and sends them. */
  CLAIM_TAKEOVER_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** Attempts of one delivery before it is recorded as failed with the SMTP reply. */
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** First retry delay of a failed delivery (doubling each attempt). */
  DELIVERY_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  /** How often the sweeper looks for deliveries to retry (given back and taken over ones among them). */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  /**
   * A queued delivery whose batch message has not been taken for this long, or an owner-less claim whose
   * lease ran out this long after it was queued, gets a new batch message.
   */
  DELIVERY_ORPHAN_AFTER_MS: z.coerce.number().int().min(100).default(30_000),
  /** Subscribe attempts allowed per address and per IP within SUBSCRIBE_RATE_WINDOW_MS. */
  SUBSCRIBE_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(3),
  SUBSCRIBE_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  SUBSCRIBE_RATE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60_000),
  /**
   * The AES-256-GCM key the providers' API keys are encrypted with at rest (32 bytes, hex or base64).
   * Required in production; elsewhere a public development key is used when it is unset.
   */
  EMAIL_SECRETS_KEY: secretsKeyVariable('EMAIL_SECRETS_KEY'),
  /**
   * The private half of the key pair provider API keys are sealed with on the bus (issue 34; X25519, 43
   * base64url characters): only this service holds it, the gateway the public half
   * (EMAIL_MARKETING_SEAL_PUBLIC_KEY). Required in production; the development pair is used elsewhere.
   */
  SEAL_PRIVATE_KEY: sealKeyVariable('SEAL_PRIVATE_KEY'),
  /**
   * Signs the unsubscribe links (an HMAC of the subscriber's id; no token is stored): 32+ characters, the
   * same for every email-marketing process. Changing it breaks the links in mails already sent. Production
   * refuses the published development value (the default).
   */
  UNSUBSCRIBE_LINK_SECRET: z.string().min(32).default(DEV_UNSUBSCRIBE_LINK_SECRET),
  /** How long a confirmation link stays valid. */
  CONFIRM_TOKEN_TTL_HOURS: z.coerce.number().min(1).default(72),
});
export type EmailMarketingConfig = z.infer<typeof emailMarketingConfigSchema>;

/**
 * What start refuses (defineService's refineConfig): a DKIM domain that does not align with MAIL_FROM, a key
 * without a selector; in production a provider URL that is not https, and a missing or published DKIM key.
 */
export function refineEmailMarketingConfig(
  c: EmailMarketingConfig & { NODE_ENV: string },
  ctx: z.RefinementCtx,
): void {
  refineVendorUrls(c, ctx, ['MAILCHIMP_BASE_URL', 'CAMPAIGN_MONITOR_BASE_URL']);
  const problem = (path: string, message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
  const fromDomain = mailFromDomain(c.MAIL_FROM);
  if (c.DKIM_DOMAIN && fromDomain && !alignsWith(c.DKIM_DOMAIN, fromDomain))
    problem(
      'DKIM_DOMAIN',
      `${c.DKIM_DOMAIN} does not align with MAIL_FROM's domain ${fromDomain} (it must be that domain or a parent of it)`,
    );
  if (
    c.BOUNCE_DOMAIN &&
    fromDomain &&
    !alignsWith(c.BOUNCE_DOMAIN, fromDomain) &&
    !alignsWith(fromDomain, c.BOUNCE_DOMAIN)
  )
    problem(
      'BOUNCE_DOMAIN',
      `${c.BOUNCE_DOMAIN} does not align with MAIL_FROM's domain ${fromDomain} (it must be that domain, a subdomain or a parent of it)`,
    );
  const key = c.DKIM_PRIVATE_KEY?.trim();
  if (key && !c.DKIM_SELECTOR) problem('DKIM_SELECTOR', 'required with DKIM_PRIVATE_KEY');
  if (c.NODE_ENV !== 'production') return;
  if (!key)
    problem(
      'DKIM_PRIVATE_KEY',
      'must be set in production: mail without a DKIM signature aligned with MAIL_FROM is rejected by the large mailbox providers',
    );
  else if (isDevelopmentDkimKey(key))
    problem(
      'DKIM_PRIVATE_KEY',
      'the development key published in this repository; set your own in production',
    );
}

/** Whether a key is the development one (by its public half: the PEM's layout may differ). */
function isDevelopmentDkimKey(pem: string): boolean {
  try {
    return (
      dkimTxtRecord(parseDkimPrivateKey(pem)) === dkimTxtRecord(parseDkimPrivateKey(DEV_DKIM_PRIVATE_KEY))
    );
  } catch {
    return false;
  }
}

/**
 * The key mails are signed with: DKIM_PRIVATE_KEY under DKIM_SELECTOR for DKIM_DOMAIN (MAIL_FROM's domain
 * by default), or outside production, when no key is set, the development key under its selector.
 */
export function dkimKeyOf(
  c: Pick<EmailMarketingConfig, 'DKIM_PRIVATE_KEY' | 'DKIM_SELECTOR' | 'DKIM_DOMAIN' | 'MAIL_FROM'>,
): DkimKey {
  const own = c.DKIM_PRIVATE_KEY?.trim();
  return {
    domain: c.DKIM_DOMAIN ?? mailFromDomain(c.MAIL_FROM) ?? 'localhost',
    selector: own ? (c.DKIM_SELECTOR ?? DEV_DKIM_SELECTOR) : DEV_DKIM_SELECTOR,
    privateKey: parseDkimPrivateKey(own || DEV_DKIM_PRIVATE_KEY),
  };
}

/** The domain of the return paths and the complaints mailbox: BOUNCE_DOMAIN, else MAIL_FROM's domain. */
export const bounceDomainOf = (c: Pick<EmailMarketingConfig, 'BOUNCE_DOMAIN' | 'MAIL_FROM'>): string =>
  c.BOUNCE_DOMAIN ?? mailFromDomain(c.MAIL_FROM) ?? 'localhost';

/** MAIL_FROM's domain, lower case (undefined when MAIL_FROM does not parse: its own check says so). */
function mailFromDomain(mailFrom: string): string | undefined {
  try {
    return parseMailbox(mailFrom).address.split('@')[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}
