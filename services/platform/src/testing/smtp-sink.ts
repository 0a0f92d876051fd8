import { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import libmime from 'libmime';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { deliveryStatusReport, sendRawMail } from './mail-reports';
import { patientDeadline, waitedFor } from './patience';

/** A mail the sink accepted, parsed (mailparser): addresses, subject, parts and headers. */
export interface SinkMail {
  from: string;
  /** The envelope sender (MAIL FROM): where a bounce of this mail goes. */
  returnPath: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** Parsed headers (mailparser folds List-* into `list`). */
  headers: Map<string, unknown>;
  /** Each header's raw value by lower-case name, as sent (e.g. 'list-unsubscribe'). */
  rawHeaders: Record<string, string>;
  messageId: string;
  parsed: ParsedMail;
  /**
   * The message as it arrived, byte for byte (what a DKIM verifier checks: dkimVerdicts); kept by the 'full'
   * sink only, the 'headers' sink counts thousands of mails.
   */
  raw?: Buffer;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  mails: SinkMail[];
  /** Errors of client connections (e.g. ECONNRESET from a killed sender), kept rather than thrown. */
  connectionErrors: Error[];
  /** Mails to one address (case-insensitive). */
  to(address: string): SinkMail[];
  /** Resolves when `predicate` holds for the mails received, or rejects after `ms`. */
  waitFor(predicate: (mails: SinkMail[]) => boolean, what: string, ms?: number): Promise<SinkMail[]>;
  /** The next `n` RCPT TO are refused with this reply (e.g. 451 to test retries, 550 for a permanent failure). */
  refuseNext(n: number, code: number, message: string): void;
  /**
   * Every RCPT TO this address is refused with this reply, as a server that knows the mailbox is gone does
   * (e.g. 550 '5.1.1 User unknown'); until `clear`.
   */
  refuseAddress(address: string, code: number, message: string): void;
  /**
   * Mails to this address are accepted and then bounced: a delivery status notification (deliveryStatusReport)
   * is sent over SMTP to `reportTo` for the mail's return path, as a relay that accepted the mail and failed
   * to deliver it does; until `clear`. `reportsSent` holds what the report's server answered.
   */
  bounceAddress(address: string, report: { status: string; diagnostic?: string }, reportTo: string): void;
  /** The DSNs sent for bounced addresses: each one's recipient and the reply (or the error) it got. */
  reportsSent: Array<{ to: string; reply: string }>;
  pause(): void;
  /** Answers the held RCPT TOs, and every next one at once again. */
  resume(): void;
  /** Forgets the mails received, the addresses refused or bounced and the reports sent. */
  clear(): void;
  close(): Promise<void>;
}

/**
 * A mail as the 'headers' sink keeps it: the envelope, the decoded Subject and the raw headers, no body
 * parsing (html, text and parsed are empty; `headers` holds the raw ones).
 */
async function headersOnly(stream: Readable, rcptTo: string[], from: string): Promise<SinkMail> {
  const raw = (await bytesOf(stream)).toString('utf8');
  const end = raw.search(/\r?\n\r?\n/);
  const rawHeaders: Record<string, string> = {};
  for (const line of (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) rawHeaders[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
  }
  return {
    from,
    returnPath: from,
    to: rcptTo,
    subject: libmime.decodeWords(rawHeaders.subject ?? ''),
    html: '',
    text: '',
    headers: new Map(Object.entries(rawHeaders)),
    rawHeaders,
    messageId: rawHeaders['message-id'] ?? '',
    parsed: {} as ParsedMail,
  };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A real SMTP server for tests (smtp-server, in-process on a free port): what the services send arrives
 * here over SMTP and is parsed, so tests check the mails as a mail client would see them. `parse:
 * 'headers'` keeps only the envelope, the Subject and the raw headers: for tests counting thousands of
 * mails, where parsing every body would make the test process the slowest part of the system under test.
 */
export async function startSmtpSink(
  options: { port?: number; parse?: 'full' | 'headers' } = {},
): Promise<SmtpSink> {
  const mails: SinkMail[] = [];
  let refusals: { left: number; code: number; message: string } | undefined;
  /** While paused: the RCPT TOs waiting for `resume`. */
  let held: (() => void)[] | undefined;
  /** Per lower-cased address: the reply every RCPT TO it gets, or the DSN sent after accepting its mail. */
  const refused = new Map<string, { code: number; message: string }>();
  const bounced = new Map<string, { status: string; diagnostic?: string; reportTo: string }>();
  const reportsSent: Array<{ to: string; reply: string }> = [];
  /** Sends the DSN of each bounced recipient of `mail` (after the mail's own reply). */
  const bounceOf = (mail: SinkMail) => {
    for (const to of mail.to) {
      const rule = bounced.get(to.toLowerCase());
      if (!rule || !mail.returnPath) continue;
      const dsn = deliveryStatusReport({ ...mail, to: [to] }, rule);
      setImmediate(() => {
        sendRawMail(rule.reportTo, { from: '', to: [mail.returnPath] }, dsn).then(
          (reply) => reportsSent.push({ to: mail.returnPath, reply }),
          (err: Error) => reportsSent.push({ to: mail.returnPath, reply: `error: ${err.message}` }),
        );
      });
    }
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 30 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const refusal = refused.get(address.address.toLowerCase());
      if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      if (held) {
        held.push(() => callback());
        return;
      }
      if (refusals && refusals.left > 0) {
        refusals.left -= 1;
        const err = Object.assign(new Error(refusals.message), { responseCode: refusals.code });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      if (options.parse === 'headers') {
        headersOnly(
          stream,
          session.envelope.rcptTo.map((r) => r.address),
          session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        )
          .then((mail) => {
            mails.push(mail);
            callback();
            bounceOf(mail);
          })
          .catch((err: Error) => callback(err));
        return;
      }
      bytesOf(stream)
        .then(async (raw) => {
          const parsed = await simpleParser(raw);
          const addresses = (v: ParsedMail['to']) =>
            (Array.isArray(v) ? v : v ? [v] : []).flatMap((a) => a.value.map((x) => x.address ?? ''));
          const mail: SinkMail = {
            from: parsed.from?.value[0]?.address ?? '',
            returnPath: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address) ?? addresses(parsed.to),
            subject: parsed.subject ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            text: parsed.text ?? '',
            headers: parsed.headers,
            rawHeaders: Object.fromEntries(
              parsed.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]),
            ),
            messageId: parsed.messageId ?? '',
            parsed,
            raw,
          };
          mails.push(mail);
          callback();
          bounceOf(mail);
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // smtp-server re-emits each connection's socket errors on the server. A client that drops its connection
  // (a sender killed mid-send resets its sockets) is what tests provoke on purpose: the sink keeps serving,
  // and the reset is kept for a test to inspect instead of crashing the test process as an unhandled 'error'.
  const connectionErrors: Error[] = [];
  server.on('error', (err: Error) => connectionErrors.push(err));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    connectionErrors,
    reportsSent,
    to: (address) => mails.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    async waitFor(predicate, what, ms = 20_000) {
      const started = Date.now();
      const deadline = patientDeadline(ms);
      while (!predicate(mails)) {
        if (Date.now() > deadline)
          throw new Error(`${what}: not ${waitedFor(started)} (${mails.length} mails received)`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return mails;
    },
    refuseNext(n, code, message) {
      refusals = { left: n, code, message };
    },
    refuseAddress(address, code, message) {
      refused.set(address.toLowerCase(), { code, message });
    },
    bounceAddress(address, report, reportTo) {
      bounced.set(address.toLowerCase(), { ...report, reportTo });
    },
    pause() {
      held ??= [];
    },
    resume() {
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    },
    clear() {
      mails.length = 0;
      refused.clear();
      bounced.clear();
      reportsSent.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
