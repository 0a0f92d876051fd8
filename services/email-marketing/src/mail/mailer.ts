import { createLogger, SERVICE_CONFIG } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { PassThrough } from 'node:stream';
import nodemailer from 'nodemailer';
import type { EmailMarketingConfig } from '../config';
import { composeMail, isPlainAddress, MailAddress, parseMailbox } from './mime';
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
  ) {
    super(message);
  }
}

interface NodemailerError extends Error {
  responseCode?: number;
  response?: string;
  code?: string;
}

/** The SMTP reply (or the connection problem) of a failed send, as staff should read it. */
export function smtpErrorOf(err: unknown): SmtpError {
  const e = err as NodemailerError;
  if (typeof e?.responseCode === 'number') {
    return new SmtpError(e.response ?? `${e.responseCode} ${e.message}`, e.responseCode >= 500);
  }
  // No reply code: the connection failed or timed out; worth another attempt.
  return new SmtpError(e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? err), false);
}

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/**
 * SMTP_URL -> nodemailer's options: a pooled transport of SMTP_POOL_SIZE connections. A server elsewhere
 * gets the mail (and the credentials) only over TLS unless SMTP_REQUIRE_TLS is false: smtps://, or STARTTLS
 * required (a server not offering it is refused, not sent the mail in clear).
 */
export function transportOptions(
  config: Pick<EmailMarketingConfig, 'SMTP_URL' | 'SMTP_POOL_SIZE' | 'SMTP_REQUIRE_TLS'>,
) {
  const url = new URL(config.SMTP_URL);
  const secure = url.protocol === 'smtps:';
  const local = LOCAL_HOSTS.includes(url.hostname);
  return {
    pool: true as const,
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
    maxMessages: Infinity,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/** What nodemailer's SMTP pool reads of a message it sends (SMTPPool.send): its envelope, id and bytes. */
interface PoolMessage {
  data: Record<string, never>;
  message: {
    getEnvelope(): { from: string; to: string[] };
    messageId(): string;
    getHeader(name: 'message-id'): string;
    createReadStream(): PassThrough;
  };
}
interface SmtpPool {
  send(mail: PoolMessage, callback: (err: Error | null, info: { response?: string }) => void): void;
}

/**
 * The one way mail leaves the service: nodemailer over a pooled SMTP transport (a real SMTP server always:
 * maildev in `make up`, an smtp-server sink in tests). Resolves when the server accepted the mail.
 * Mails to plain addresses go as messages composed in one pass (`composeMail`), handed straight to the
 * transport's SMTP pool (nodemailer's sendMail would build a MIME tree around the finished bytes, two random
 * ids and a stream pipeline per mail, none of them used); an address that needs IDN or SMTPUTF8 goes through
 * nodemailer's own composer.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly transport;
  private readonly from: MailAddress;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig) {
    this.transport = nodemailer.createTransport(transportOptions(config));
    this.from = parseMailbox(config.MAIL_FROM);
  }

  async send(to: string, content: MailContent, replyTo?: string): Promise<Accepted> {
    try {
      if (isPlainAddress(to) && isPlainAddress(this.from.address) && (!replyTo || isPlainAddress(replyTo))) {
        const mail = composeMail({ from: this.from, to, replyTo: replyTo || undefined, content });
        const response = await this.sendComposed(
          { from: this.from.address, to: [to] },
          mail.messageId,
          mail.raw,
        );
        return { messageId: mail.messageId, response };
      }
      const info = await this.transport.sendMail({
        from: this.config.MAIL_FROM,
        to,
        replyTo: replyTo || undefined,
        subject: content.subject,
        html: content.html,
        text: content.text,
        headers: content.headers,
      });
      return { messageId: String(info.messageId ?? ''), response: String(info.response ?? '') };
    } catch (err) {
      const failure = smtpErrorOf(err);
      log.warn({ to, reply: failure.message, permanent: failure.permanent }, 'SMTP refused a mail');
      throw failure;
    }
  }

  /** A finished message through the pool: resolves with the server's reply once it accepted the mail. */
  private sendComposed(
    envelope: { from: string; to: string[] },
    messageId: string,
    raw: Buffer,
  ): Promise<string> {
    const pool = this.transport.transporter as unknown as SmtpPool;
    return new Promise((resolve, reject) => {
      pool.send(
        {
          data: {},
          message: {
            getEnvelope: () => envelope,
            messageId: () => messageId,
            getHeader: () => messageId,
            createReadStream: () => new PassThrough().end(raw),
          },
        },
        (err, info) => (err ? reject(err) : resolve(String(info?.response ?? ''))),
      );
    });
  }

  onApplicationShutdown() {
    this.transport.close();
  }
}
