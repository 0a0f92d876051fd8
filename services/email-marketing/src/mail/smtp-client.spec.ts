import net, { AddressInfo } from 'node:net';
import { SMTPServer, SMTPServerOptions, SMTPServerSession } from 'smtp-server';
import { dataOf, SmtpClientOptions, SmtpConnectionError, SmtpPool, SmtpReplyError } from './smtp-client';

/** What the server received: each message's envelope, bytes and session. */
interface Received {
  from: string;
  to: string[];
  raw: string;
  transmissionType: string;
}

/**
 * A real SMTP server (smtp-server) behind a counting relay: `writes` is how many chunks the client wrote, the
 * measure of pipelining (a client that waits for every reply writes at least one chunk per command).
 */
async function startServer(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  let sessions = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      sessions++;
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          transmissionType: session.transmissionType,
        });
        callback();
      });
    },
    ...options,
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serverPort = (server.server.address() as AddressInfo).port;
  let writes = 0;
  const clients: net.Socket[] = [];
  const relay = net.createServer((client) => {
    clients.push(client);
    const upstream = net.connect(serverPort, '127.0.0.1');
    client.on('data', () => writes++);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    received,
    port: (relay.address() as AddressInfo).port,
    writes: () => writes,
    /** Drops every client connection (smtp-server does not expose its sockets; the relay in front does). */
    dropClients: () => clients.forEach((c) => c.destroy()),
    sessions: () => sessions,
    close: async () => {
      await new Promise((resolve) => relay.close(resolve));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const clientOptions = (port: number, extra: Partial<SmtpClientOptions> = {}): SmtpClientOptions => ({
  host: '127.0.0.1',
  port,
  secure: false,
  ignoreTLS: true,
  requireTLS: false,
  maxConnections: 1,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  name: 'test.local',
  ...extra,
});

const message = (i: number) =>
  Buffer.from(
    `From: a@example.com\r\nTo: r${i}@example.com\r\nSubject: mail ${i}\r\n\r\n` +
      `.a line that starts with a dot\r\nbody of mail ${i}\r\n..two dots\r\n`,
  );

describe('SMTP client (pipelined pool)', () => {
  let servers: Awaited<ReturnType<typeof startServer>>[] = [];
  let pools: SmtpPool[] = [];
  const server = async (options?: Partial<SMTPServerOptions>) => {
    const s = await startServer(options);
    servers.push(s);
    return s;
  };
  const pool = (options: SmtpClientOptions) => {
    const p = new SmtpPool(options);
    pools.push(p);
    return p;
  };
  afterEach(async () => {
    for (const p of pools) p.close();
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    pools = [];
  });

  it('sends each mail in one write on a busy connection, byte for byte, dots and all', async () => {
    const s = await server();
    const smtp = pool(clientOptions(s.port));
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        smtp.send({ from: 'a@example.com', to: [`r${i}@example.com`] }, message(i)),
      ),
    );
    expect(replies.every((r) => r.startsWith('250 '))).toBe(true);
    expect(s.received).toHaveLength(100);
    s.received.forEach((m, i) => {
      expect(m).toMatchObject({ from: 'a@example.com', to: [`r${i}@example.com`] });
      expect(m.raw).toBe(message(i).toString());
    });
    // EHLO, the first envelope, then one write a mail (its data, its end and the next envelope).
    expect(s.writes()).toBeLessThanOrEqual(100 + 3);
  });

  it('speaks one command at a time to a server without PIPELINING', async () => {
    const s = await server({ hidePIPELINING: true });
    const smtp = pool(clientOptions(s.port));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        smtp.send({ from: 'a@example.com', to: [`r${i}@example.com`] }, message(i)),
      ),
    );
    expect(s.received.map((m) => m.to[0])).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}@example.com`));
    expect(s.writes()).toBeGreaterThanOrEqual(20 * 4);
  });

  it('fails only the refused mail, with the reply, and goes on with the next on the same connection', async () => {
    const s = await server({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('bounce'))
          return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
        if (address.address.startsWith('later'))
          return callback(Object.assign(new Error('Try later'), { responseCode: 451 }));
        callback();
      },
    });
    const smtp = pool(clientOptions(s.port));
    const results = await Promise.allSettled(
      ['ok1', 'bounce', 'ok2', 'later', 'ok3'].map((who) =>
        smtp.send({ from: 'a@example.com', to: [`${who}@example.com`] }, message(0)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const bounce = (results[1] as PromiseRejectedResult).reason as SmtpReplyError;
    expect(bounce).toBeInstanceOf(SmtpReplyError);
    expect(bounce).toMatchObject({ responseCode: 550, command: 'RCPT TO' });
    expect(bounce.response).toContain('No such user');
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ responseCode: 451 });
    expect(s.received.map((m) => m.to[0])).toEqual(['ok1@example.com', 'ok2@example.com', 'ok3@example.com']);
    expect(s.sessions()).toBe(1);
  });

  it('fails a mail whose data the server refuses, and sends the next', async () => {
    const s = await server({
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          if (session.envelope.rcptTo[0].address !== 'spam@example.com') return callback();
          callback(Object.assign(new Error('Message looks like spam'), { responseCode: 554 }));
        });
      },
    });
    const smtp = pool(clientOptions(s.port));
    const results = await Promise.allSettled(
      ['spam', 'fine'].map((who) =>
        smtp.send({ from: 'a@example.com', to: [`${who}@example.com`] }, message(1)),
      ),
    );
    expect(results[0]).toMatchObject({
      status: 'rejected',
      reason: { responseCode: 554, command: 'end of data' },
    });
    expect(results[1].status).toBe('fulfilled');
    expect(s.sessions()).toBe(1);
  });

  it('fails the mails in flight when the server drops the connection, and sends the next over a new one', async () => {
    let drop = true;
    const s = await server({
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          if (drop && session.envelope.rcptTo[0].address === 'drop@example.com') {
            drop = false;
            s.dropClients();
            return;
          }
          callback();
        });
      },
    });
    const smtp = pool(clientOptions(s.port));
    const dropped = await smtp.send({ from: 'a@example.com', to: ['drop@example.com'] }, message(0)).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(dropped).toBeInstanceOf(SmtpConnectionError);
    await expect(smtp.send({ from: 'a@example.com', to: ['next@example.com'] }, message(1))).resolves.toMatch(
      /^250/,
    );
    expect(s.sessions()).toBe(2);
  });

  it('does not hand a mail to a connection the server closed while it was idle', async () => {
    let sessionClosed!: () => void;
    const closed = new Promise<void>((resolve) => (sessionClosed = resolve));
    const s = await server({ socketTimeout: 300, onClose: () => sessionClosed() });
    const smtp = pool(clientOptions(s.port, { idleTimeout: 60_000 }));
    await smtp.send({ from: 'a@example.com', to: ['first@example.com'] }, message(0));
    // The server's idle timeout says 421 and closes the session; the next mail is sent after that.
    await closed;
    await expect(
      smtp.send({ from: 'a@example.com', to: ['second@example.com'] }, message(1)),
    ).resolves.toMatch(/^250/);
    expect(s.received.map((m) => m.to[0])).toEqual(['first@example.com', 'second@example.com']);
  });

  it('upgrades with STARTTLS and authenticates (PLAIN and LOGIN) before any mail', async () => {
    for (const method of ['PLAIN', 'LOGIN']) {
      const logins: string[] = [];
      const s = await server({
        disabledCommands: [],
        authOptional: false,
        authMethods: [method],
        onAuth(auth, _session, callback) {
          logins.push(`${auth.method} ${auth.username}:${auth.password}`);
          if (auth.username === 'user' && auth.password === 'p@ss word')
            return callback(null, { user: 'user' });
          callback(new Error('Invalid username or password'));
        },
      });
      const smtp = pool(
        clientOptions(s.port, {
          ignoreTLS: false,
          requireTLS: true,
          auth: { user: 'user', pass: 'p@ss word' },
          tls: { rejectUnauthorized: false },
        }),
      );
      await smtp.send({ from: 'a@example.com', to: ['r@example.com'] }, message(0));
      expect(logins).toEqual([`${method} user:p@ss word`]);
      // E(SMTP), S(TLS), A(uthenticated).
      expect(s.received[0].transmissionType).toBe('ESMTPSA');
    }
  });

  it('fails a mail, not for good, when the server refuses the login', async () => {
    const s = await server({
      disabledCommands: ['STARTTLS'],
      authOptional: false,
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error('Invalid username or password')),
    });
    const smtp = pool(clientOptions(s.port, { auth: { user: 'user', pass: 'wrong' } }));
    const err = await smtp
      .send({ from: 'a@example.com', to: ['r@example.com'] }, message(0))
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(SmtpConnectionError);
    expect(err).toMatchObject({ code: 'EAUTH' });
    expect((err as Error).message).toMatch(/^AUTH PLAIN: 535 /);
    expect(s.received).toHaveLength(0);
  });

  it('refuses to send in clear to a server without STARTTLS when TLS is required', async () => {
    const s = await server();
    const smtp = pool(clientOptions(s.port, { ignoreTLS: false, requireTLS: true }));
    await expect(
      smtp.send({ from: 'a@example.com', to: ['r@example.com'] }, message(0)),
    ).rejects.toMatchObject({
      code: 'ETLS',
    });
    expect(s.received).toHaveLength(0);
  });

  it('asks for SMTPUTF8 for an address beyond ASCII, and refuses it where the server does not offer it', async () => {
    const s = await server();
    const smtp = pool(clientOptions(s.port));
    await smtp.send({ from: 'a@example.com', to: ['jõgeva@example.com'] }, message(0));
    expect(s.received[0].to).toEqual(['jõgeva@example.com']);

    const plain = await server({ hideSMTPUTF8: true });
    const old = pool(clientOptions(plain.port));
    await expect(
      old.send({ from: 'a@example.com', to: ['jõgeva@example.com'] }, message(0)),
    ).rejects.toMatchObject({
      responseCode: 553,
    });
    await expect(old.send({ from: 'a@example.com', to: ['plain@example.com'] }, message(1))).resolves.toMatch(
      /^250/,
    );
  });

  it('fails a mail at once when no connection can be made', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const smtp = pool(clientOptions(port));
    await expect(
      smtp.send({ from: 'a@example.com', to: ['r@example.com'] }, message(0)),
    ).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});

describe('dataOf', () => {
  it('doubles a leading dot on every line and ends the message with CRLF', () => {
    expect(dataOf(Buffer.from('.first\r\nmid\r\n.x\r\nlast')).toString()).toBe(
      '..first\r\nmid\r\n..x\r\nlast\r\n',
    );
    expect(dataOf(Buffer.from('plain\r\n')).toString()).toBe('plain\r\n');
  });
});
