import { createLogger, SERVICE_CONFIG } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import MailComposer from 'nodemailer/lib/mail-composer';
import { dkimKeyOf, type EmailMarketingConfig } from '../config';
import { dkimSign, type DkimKey } from './dkim';
import { composeMail, isPlainAddress, MailAddress, parseMailbox } from './mime';
import { SmtpClientOptions, SmtpPool } from './smtp-client';
import type { MailContent } from './templates';

const log = createLogger('mailer');

export interface Accepted {
  messageId: string;
  response: string;
}

/** Why SMTP refused a mail: the server's reply, and whether trying again can help (4xx, connection trouble). */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The server's reply code; none when the connection failed (the address is then not to blame). */
    readonly replyCode?: number,
  ) {
    super(message);
  }
}

interface ClientError extends Error {
  responseCode?: number;
  response?: string;
  code?: string;
}

/** The SMTP reply (or the connection problem) of a failed send, as staff should read it. */
export function smtpErrorOf(err: unknown): SmtpError {
  const e = err as ClientError;
  if (typeof e?.responseCode === 'number') {
    return new SmtpError(
      e.response ?? `${e.responseCode} ${e.message}`,
      e.responseCode >= 500,
      e.responseCode,
    );
  }
  // No reply code: the connection failed or timed out; worth another attempt.
  return new SmtpError(e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? err), false);
}

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/**
 * SMTP_URL -> the SMTP client's options: a pool of SMTP_POOL_SIZE connections. A server elsewhere
 * gets the mail (and the credentials) only over TLS unless SMTP_REQUIRE_TLS is false: smtps://, or STARTTLS
 * required (a server not offering it is refused, not sent the mail in clear).
 */
export function transportOptions(
  config: Pick<EmailMarketingConfig, 'SMTP_URL' | 'SMTP_POOL_SIZE' | 'SMTP_REQUIRE_TLS'>,
): SmtpClientOptions {
  const url = new URL(config.SMTP_URL);
  const secure = url.protocol === 'smtps:';
  const local = LOCAL_HOSTS.includes(url.hostname);
  return {
    host: url.hostname,
    port: Number(url.port || (secure ? 465 : 25)),
    secure,
    // A local server (maildev, a test sink) has no certificate worth checking; elsewhere STARTTLS is
    // required (or, with SMTP_REQUIRE_TLS=false, used whenever the server offers it).
    ignoreTLS: !secure && local,
    requireTLS: !secure && !local && config.SMTP_REQUIRE_TLS,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    maxConnections: config.SMTP_POOL_SIZE,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/**
 * The one way mail leaves the service: the SMTP client's pool (`smtp-client.ts`, pipelined) to a real SMTP
 * server always (maildev in `make up`, an smtp-server sink in tests). Resolves when the server accepted the
 * mail. Mails to plain addresses are composed in one pass (`composeMail`); an address that needs IDN or
 * SMTPUTF8 is composed by nodemailer's composer; both are DKIM-signed (dkim.ts) and go out over the same pool.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly pool: SmtpPool;
  private readonly from: MailAddress;
  private readonly dkim: DkimKey;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig) {
    this.pool = new SmtpPool(transportOptions(config));
    this.from = parseMailbox(config.MAIL_FROM);
    this.dkim = dkimKeyOf(config);
  }

  /**
   * Sends one mail. `returnPath`: its envelope sender (a delivery's VERP address, for its bounces), else
   * MAIL_FROM's address.
   */
  async send(
    to: string,
    content: MailContent,
    options: { replyTo?: string; returnPath?: string } = {},
  ): Promise<Accepted> {
    const { replyTo, returnPath } = options;
    try {
      if (isPlainAddress(to) && isPlainAddress(this.from.address) && (!replyTo || isPlainAddress(replyTo))) {
        const mail = composeMail({ from: this.from, to, replyTo: replyTo || undefined, content });
        const signed = await dkimSign(mail.raw, this.dkim);
        const response = await this.pool.send({ from: returnPath ?? this.from.address, to: [to] }, signed);
        return { messageId: mail.messageId, response };
      }
      const node = new MailComposer({
        from: this.config.MAIL_FROM,
        to,
        replyTo: replyTo || undefined,
        subject: content.subject,
        html: content.html,
        text: content.text,
        headers: content.headers,
      }).compile();
      const envelope = node.getEnvelope();
      const response = await this.pool.send(
        { from: returnPath ?? (envelope.from || this.from.address), to: envelope.to },
        await dkimSign(await node.build(), this.dkim),
      );
      return { messageId: node.messageId(), response };
    } catch (err) {
      const failure = smtpErrorOf(err);
      log.warn({ to, reply: failure.message, permanent: failure.permanent }, 'SMTP refused a mail');
      throw failure;
    }
  }

  onApplicationShutdown() {
    this.pool.close();
  }
}
