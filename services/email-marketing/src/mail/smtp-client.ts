/**
 * The service's SMTP client: a pool of connections that send finished messages with command pipelining
 * (RFC 2920). Each mail's MAIL FROM, RCPT TO and DATA go in one write, and once the server's 354 arrives the
 * message, its end and the next mail's three commands go in the next: one round trip a mail on a busy
 * connection where a client that waits for every reply pays four (nodemailer's, which the sender used
 * before). A server that does not offer PIPELINING is sent one command at a time over the same code.
 * STARTTLS, implicit TLS and AUTH PLAIN / LOGIN as the SMTP_URL asks.
 */
import {
  Connection,
  connectionError,
  CRLF,
  dataOf,
  END_OF_DATA,
  type Envelope,
  NON_ASCII,
  type Reply,
  type SmtpClientOptions,
  SmtpConnectionError,
  SmtpReplyError,
} from './smtp-connection';

export { dataOf, SmtpConnectionError, SmtpReplyError } from './smtp-connection';
export type { Envelope, SmtpClientOptions } from './smtp-connection';

interface Job {
  envelope: Envelope;
  raw: Buffer;
  resolve(response: string): void;
  reject(err: Error): void;
}

function envelopeFailure(replies: Reply[]): SmtpReplyError | undefined {
  for (const r of replies) {
    const ok = r.command === 'DATA' ? r.code === 354 : r.code === 250 || r.code === 251;
    if (!ok) return new SmtpReplyError(r.code, r.text, r.command);
  }
  return replies.at(-1)?.command === 'DATA' ? undefined : new SmtpReplyError(0, 'no reply to DATA', 'DATA');
}

/**
 * Connections opened as the queue needs them, up to `maxConnections`; each takes the next mail from the one
 * queue, so a mail waits for the first free connection, not a particular one.
 */
export class SmtpPool {
  private readonly queue: Job[] = [];
  private readonly idle: Array<(job: Job | undefined) => void> = [];
  private connections = 0;
  private closing = false;

  constructor(private readonly options: SmtpClientOptions) {}

  /** Sends a finished message; resolves with the server's reply once it accepted the mail. */
  send(envelope: Envelope, raw: Buffer): Promise<string> {
    if (this.closing) return Promise.reject(new SmtpConnectionError('ECLOSED', 'the SMTP pool is closed'));
    return new Promise((resolve, reject) => {
      const job: Job = { envelope, raw, resolve, reject };
      const waiting = this.idle.shift();
      if (waiting) waiting(job);
      else {
        this.queue.push(job);
        if (this.connections < this.options.maxConnections) this.openConnection();
      }
    });
  }

  /** Closes the idle connections now and the busy ones once their mails are sent. */
  close() {
    this.closing = true;
    for (const w of this.idle.splice(0)) w(undefined);
  }

  private openConnection() {
    this.connections++;
    Connection.open(this.options)
      .then((connection) => this.work(connection))
      .catch((err: Error) => {
        // Nothing was sent: the mail that asked for this connection fails (another attempt comes from
        // the sender's retries); the rest wait for the connections that work or open again. A refusal
        // while setting up the session (greeting, EHLO, AUTH) says nothing about the mail: not permanent.
        const failure =
          err instanceof SmtpReplyError
            ? new SmtpConnectionError(
                `E${err.command.split(' ')[0].toUpperCase()}`,
                `${err.command}: ${err.response}`,
              )
            : err;
        this.queue.shift()?.reject(failure);
      })
      .finally(() => {
        this.connections--;
        if (this.queue.length && !this.closing && this.connections < this.options.maxConnections)
          this.openConnection();
      });
  }

  /**
   * The connection's next mail: at once if one waits, else when one comes; undefined after `idleTimeout`, on
   * close, or when the server drops the idle connection (no mail is handed to a dead one).
   */
  private take(connection: Connection): Promise<Job | undefined> {
    const job = this.queue.shift();
    if (job || this.closing) return Promise.resolve(job);
    return new Promise((resolve) => {
      const stop = () => {
        const at = this.idle.indexOf(wake);
        if (at >= 0) this.idle.splice(at, 1);
        wake(undefined);
      };
      const timer = setTimeout(stop, this.options.idleTimeout ?? 5000);
      const cancel = connection.whenClosed(stop);
      const wake = (j: Job | undefined) => {
        clearTimeout(timer);
        cancel();
        resolve(j);
      };
      this.idle.push(wake);
    });
  }

  /** One connection's loop: each mail's data goes out with the next mail's envelope behind it. */
  private async work(connection: Connection) {
    let job = await this.take(connection);
    let next: Job | undefined;
    let replies = job && this.begin(connection, job);
    try {
      while (job && replies) {
        const current: Job = job;
        const envelope = await replies;
        const failed = envelopeFailure(envelope);
        if (failed) {
          current.reject(failed);
          // DATA may have been accepted with no recipient: end the empty message. Then close the
          // transaction (MAIL may have been accepted) before the next mail's.
          if (envelope.at(-1)?.code === 354) {
            connection.write(END_OF_DATA);
            await connection.expect('end of data');
          }
          connection.write(`RSET${CRLF}`);
          await connection.expect('RSET');
          job = await this.take(connection);
          replies = job && this.begin(connection, job);
          continue;
        }
        next = connection.pipelining ? this.queue.shift() : undefined;
        const data = dataOf(current.raw);
        if (next) connection.write(data, END_OF_DATA, connection.envelopeCommands(next.envelope));
        else connection.write(data, END_OF_DATA);
        const accepted = connection.expect('end of data');
        const nextReplies = next && connection.expectEnvelope(next.envelope);
        nextReplies?.catch(() => undefined);
        const reply = await accepted;
        if (reply.code === 250) current.resolve(reply.text);
        else current.reject(new SmtpReplyError(reply.code, reply.text, 'end of data'));
        job = next ?? (await this.take(connection));
        replies = next ? nextReplies : job && this.begin(connection, job);
        next = undefined;
      }
      await connection.quit();
    } catch (err) {
      // The connection failed: the mail in flight and the one pipelined behind it fail, to be tried again.
      const failure = connectionError(err);
      job?.reject(failure);
      next?.reject(failure);
      connection.destroy(failure);
    }
  }

  /** Writes a mail's envelope commands; the promise of their replies. */
  private begin(connection: Connection, job: Job): Promise<Reply[]> {
    const { envelope } = job;
    const utf8 = NON_ASCII.test(envelope.from) || envelope.to.some((t) => NON_ASCII.test(t));
    if (utf8 && !connection.smtpUtf8) {
      // Not written: the server could not take the address. Resolved as a refused MAIL FROM.
      const text = '553 the server does not offer SMTPUTF8, which this address needs';
      return Promise.resolve([{ command: 'MAIL FROM', code: 553, text, lines: [] }]);
    }
    if (!connection.pipelining) return this.stepwise(connection, envelope);
    connection.write(connection.envelopeCommands(envelope));
    return connection.expectEnvelope(envelope);
  }

  /** A server without PIPELINING: each command waits for the reply before it, stopping at the first refusal. */
  private async stepwise(connection: Connection, envelope: Envelope): Promise<Reply[]> {
    const lines = connection.envelopeCommands(envelope).split(CRLF).filter(Boolean);
    const replies: Reply[] = [];
    for (const [i, line] of lines.entries()) {
      connection.write(line + CRLF);
      const reply = await connection.expect(line.startsWith('DATA') ? 'DATA' : line.split(':')[0]);
      replies.push(reply);
      const last = i === lines.length - 1;
      if (!last && reply.code !== 250 && reply.code !== 251) break;
    }
    return replies;
  }
}
