import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';

/** The SMTP client's options, errors and one session (the pool that uses them: `smtp-client.ts`, ADR 0017). */
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

export interface Reply {
  /** The command it answers. */
  command: string;
  code: number;
  /** The whole reply, its lines joined by newlines. */
  text: string;
  lines: string[];
}

export const CRLF = '\r\n';
export const END_OF_DATA = Buffer.from('.\r\n');
/** ASCII only: an address beyond it needs the server's SMTPUTF8. */
export const NON_ASCII = /[^\p{ASCII}]/u;

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
export class Connection {
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

export function connectionError(err: unknown): Error {
  if (err instanceof SmtpConnectionError || err instanceof SmtpReplyError) return err;
  const e = err as NodeJS.ErrnoException;
  return new SmtpConnectionError(e?.code ?? 'ECONNECTION', String(e?.message ?? err));
}

/** The first reply of an envelope that is not a success, as the mail's error (none when DATA got its 354). */
