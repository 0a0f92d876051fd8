import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';

/**
 * The service's SMTP client: a pool of connections that send finished messages with command pipelining
 * (RFC 2920). Each mail's MAIL FROM, RCPT TO and DATA go in one write, and once the server's 354 arrives the
 * message, its end and the next mail's three commands go in the next: one round trip a mail on a busy
 * connection where a client that waits for every reply pays four (nodemailer's, which the sender used
 * before). A server that does not offer PIPELINING is sent one command at a time over the same code.
 * STARTTLS, implicit TLS and AUTH PLAIN / LOGIN as the SMTP_URL asks.
 */
export interface SmtpClientOptions {
  host: string;
  port: number;
  /** TLS from the first byte (smtps://). */
  secure: boolean;
  /** Never upgrade with STARTTLS (a local server). */
  ignoreTLS: boolean;
  /** Refuse a server that does not offer STARTTLS rather than send it anything in clear. */
  requireTLS: boolean;
  auth?: { user: string; pass: string };
  maxConnections: number;
  connectionTimeout: number;
  greetingTimeout: number;
  /** The longest wait for a reply the client is owed. */
  socketTimeout: number;
  /** A connection with nothing to send this long says QUIT (servers drop idle clients themselves). */
  idleTimeout?: number;
  /** The name given in EHLO; the machine's host name by default. */
  name?: string;
  /** Options of the TLS connection (tests give a self-signed server's certificate). */
  tls?: tls.ConnectionOptions;
}

/** An envelope: the return path and the recipients, addresses without display names. */
export interface Envelope {
  from: string;
  to: string[];
}

/** The server refused a command: its reply code and text. */
export class SmtpReplyError extends Error {
  constructor(
    readonly responseCode: number,
    readonly response: string,
    readonly command: string,
  ) {
    super(`${command}: ${response}`);
  }
}

/** The connection failed (refused, dropped, timed out, TLS) before the server answered. */
export class SmtpConnectionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Reply {
  /** The command it answers. */
  command: string;
  code: number;
  /** The whole reply, its lines joined by newlines. */
  text: string;
  lines: string[];
}

interface Job {
  envelope: Envelope;
  raw: Buffer;
  resolve(response: string): void;
  reject(err: Error): void;
}

const CRLF = '\r\n';
const END_OF_DATA = Buffer.from('.\r\n');
/** ASCII only: an address beyond it needs the server's SMTPUTF8. */
const NON_ASCII = /[^\p{ASCII}]/u;

/** The message as DATA carries it: lines starting with a dot get another, and it ends with CRLF. */
export function dataOf(raw: Buffer): Buffer {
  let out = raw;
  if (out[0] === 0x2e || out.includes('\n.')) {
    const text = out.toString('latin1').replace(/(^|\n)\./g, '$1..');
    out = Buffer.from(text, 'latin1');
  }
  const endsWithCrlf = out.length >= 2 && out[out.length - 2] === 0x0d && out[out.length - 1] === 0x0a;
  return endsWithCrlf || out.length === 0 ? out : Buffer.concat([out, Buffer.from(CRLF)]);
}

/** One SMTP session: a line reader whose replies go, in order, to the commands written. */
class Connection {
  private socket: net.Socket;
  private buffered = '';
  private replyLines: string[] = [];
  private readonly waiters: Array<{ command: string; resolve(r: Reply): void; reject(e: Error): void }> = [];
  private failure?: Error;
  private onClose: Array<() => void> = [];
  readonly extensions = new Set<string>();
  private authMethods: string[] = [];

  private constructor(
    socket: net.Socket,
    private readonly options: SmtpClientOptions,
  ) {
    this.socket = socket;
    this.listen(socket);
  }

  get closed() {
    return this.failure !== undefined;
  }

  get pipelining() {
    return this.extensions.has('PIPELINING');
  }

  get smtpUtf8() {
    return this.extensions.has('SMTPUTF8');
  }

  /** Connects, reads the greeting, says EHLO, upgrades to TLS and authenticates as the options ask. */
  static async open(options: SmtpClientOptions): Promise<Connection> {
    const socket = options.secure
      ? tls.connect({
          host: options.host,
          port: options.port,
          servername: serverName(options.host),
          ...options.tls,
        })
      : net.connect({ host: options.host, port: options.port });
    socket.setNoDelay(true);
    const connected = options.secure ? 'secureConnect' : 'connect';
    const timer = setTimeout(
      () =>
        socket.destroy(
          new SmtpConnectionError('ETIMEDOUT', `no connection to ${options.host}:${options.port}`),
        ),
      options.connectionTimeout,
    );
    try {
      await once(socket, connected);
    } catch (err) {
      throw connectionError(err);
    } finally {
      clearTimeout(timer);
    }
    const connection = new Connection(socket, options);
    try {
      await connection.start();
    } catch (err) {
      connection.destroy(err as Error);
      throw err;
    }
    return connection;
  }

  private async start() {
    const greeting = await this.expect('greeting', this.options.greetingTimeout);
    if (greeting.code !== 220) throw new SmtpReplyError(greeting.code, greeting.text, 'greeting');
    await this.hello();
    const secure = this.socket instanceof tls.TLSSocket;
    if (!secure && !this.options.ignoreTLS && this.extensions.has('STARTTLS')) {
      await this.command('STARTTLS', 220);
      await this.upgrade();
      await this.hello();
    } else if (!secure && this.options.requireTLS) {
      throw new SmtpConnectionError(
        'ETLS',
        `${this.options.host} does not offer STARTTLS and TLS is required`,
      );
    }
    if (this.options.auth) await this.authenticate(this.options.auth);
  }

  private async hello() {
    const name = this.options.name ?? os.hostname();
    this.write(`EHLO ${name}${CRLF}`);
    let reply = await this.expect('EHLO');
    if (reply.code >= 500) {
      this.write(`HELO ${name}${CRLF}`);
      reply = await this.expect('HELO');
    }
    if (reply.code !== 250) throw new SmtpReplyError(reply.code, reply.text, 'EHLO');
    this.extensions.clear();
    for (const line of reply.lines.slice(1)) {
      const [keyword, ...args] = line.trim().split(/\s+/);
      this.extensions.add(keyword.toUpperCase());
      if (keyword.toUpperCase() === 'AUTH') this.authMethods = args.map((a) => a.toUpperCase());
    }
  }

  private async upgrade() {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('error');
    plain.removeAllListeners('close');
    plain.removeAllListeners('timeout');
    const secure = tls.connect({
      socket: plain,
      servername: serverName(this.options.host),
      ...this.options.tls,
    });
    this.socket = secure;
    this.listen(secure);
    const timer = setTimeout(
      () => secure.destroy(new SmtpConnectionError('ETIMEDOUT', 'TLS handshake timed out')),
      this.options.connectionTimeout,
    );
    try {
      await once(secure, 'secureConnect');
    } catch (err) {
      throw connectionError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  private async authenticate({ user, pass }: { user: string; pass: string }) {
    if (this.authMethods.includes('PLAIN') || !this.authMethods.includes('LOGIN')) {
      const token = Buffer.from(`\0${user}\0${pass}`).toString('base64');
      await this.command(`AUTH PLAIN ${token}`, 235, 'AUTH PLAIN');
      return;
    }
    await this.command('AUTH LOGIN', 334);
    await this.command(Buffer.from(user).toString('base64'), 334, 'AUTH LOGIN user');
    await this.command(Buffer.from(pass).toString('base64'), 235, 'AUTH LOGIN password');
  }

  /** Writes a command and waits for its reply, which must have `code`. */
  private async command(line: string, code: number, name = line) {
    this.write(line + CRLF);
    const reply = await this.expect(name);
    if (reply.code !== code) throw new SmtpReplyError(reply.code, reply.text, name);
    return reply;
  }

  /** The commands that open a mail's transaction, as one string. */
  envelopeCommands({ from, to }: Envelope): string {
    const utf8 = NON_ASCII.test(from) || to.some((t) => NON_ASCII.test(t));
    let out = `MAIL FROM:<${from}>${utf8 ? ' SMTPUTF8' : ''}${CRLF}`;
    for (const rcpt of to) out += `RCPT TO:<${rcpt}>${CRLF}`;
    return out + `DATA${CRLF}`;
  }

  /** The replies a mail's envelope commands are owed, registered in the order they were written. */
  expectEnvelope({ to }: Envelope): Promise<Reply[]> {
    return Promise.all([
      this.expect('MAIL FROM'),
      ...to.map(() => this.expect('RCPT TO')),
      this.expect('DATA'),
    ]);
  }

  /** Writes `chunks` at once (a pipelined group). */
  write(...chunks: (string | Buffer)[]) {
    if (this.failure) return;
    this.socket.cork();
    for (const chunk of chunks) this.socket.write(chunk);
    this.socket.uncork();
  }

  /** The next reply the server owes; the socket's timeout runs while any is owed. */
  expect(command: string, timeout = this.options.socketTimeout): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiters.push({ command, resolve, reject });
      this.socket.setTimeout(timeout);
    });
  }

  /** Says QUIT and closes. */
  async quit() {
    if (this.failure) return;
    this.write(`QUIT${CRLF}`);
    await this.expect('QUIT', 1000).catch(() => undefined);
    this.destroy(new SmtpConnectionError('ECLOSED', 'connection closed'));
  }

  destroy(err: Error) {
    this.failure ??= err;
    this.socket.destroy();
    for (const w of this.waiters.splice(0)) w.reject(this.failure);
    for (const f of this.onClose.splice(0)) f();
  }

  /** Runs `f` once the connection is closed (at once if it is); returns how to cancel that. */
  whenClosed(f: () => void): () => void {
    if (this.failure) {
      f();
      return () => undefined;
    }
    this.onClose.push(f);
    return () => (this.onClose = this.onClose.filter((g) => g !== f));
  }

  private listen(socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => this.read(chunk));
    socket.on('error', (err) => this.destroy(connectionError(err)));
    socket.on('close', () =>
      this.destroy(new SmtpConnectionError('ECONNRESET', `${this.options.host} closed the connection`)),
    );
    socket.on('timeout', () => {
      if (this.waiters.length) {
        const what = this.waiters[0].command;
        this.destroy(new SmtpConnectionError('ETIMEDOUT', `no reply to ${what} in time`));
      }
    });
  }

  private read(chunk: string) {
    this.buffered += chunk;
    let end: number;
    while ((end = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, end).replace(/\r$/, '');
      this.buffered = this.buffered.slice(end + 1);
      this.replyLines.push(line.slice(4));
      if (line.charAt(3) === '-') continue;
      const code = Number(line.slice(0, 3));
      const text = `${code} ${this.replyLines.join('\n')}`;
      const waiter = this.waiters.shift();
      const reply: Reply = { command: waiter?.command ?? '', code, lines: this.replyLines, text };
      this.replyLines = [];
      if (!this.waiters.length) this.socket.setTimeout(0);
      if (!waiter) {
        // A reply no command asked for: the server's own 421 before it closes, or a broken server.
        this.destroy(new SmtpConnectionError('EPROTOCOL', `unexpected reply ${text}`));
        return;
      }
      waiter.resolve(reply);
    }
  }
}

const serverName = (host: string) => (net.isIP(host) ? undefined : host);

function connectionError(err: unknown): Error {
  if (err instanceof SmtpConnectionError || err instanceof SmtpReplyError) return err;
  const e = err as NodeJS.ErrnoException;
  return new SmtpConnectionError(e?.code ?? 'ECONNECTION', String(e?.message ?? err));
}

/** The first reply of an envelope that is not a success, as the mail's error (none when DATA got its 354). */
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
