// The mail side the email-delivery and scale benches share: an SMTP server in the bench process that accepts
// everything and records when each recipient's mail arrived (parsing nothing), the service's own mails for a
// list of subscribers, and the SMTP-only floor: the same mails composed before the clock starts, sent over
// the service's own pipelining SMTP pool (ADR 0017), so only SMTP is timed.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { manualSendRequest, sleep, stockIdOf, tickerOf } from './lib.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVICE = path.join(ROOT, 'services/email-marketing');
const { announcementMail } = require(path.join(SERVICE, 'dist/mail/templates.js'));
const { composeMail, parseMailbox } = require(path.join(SERVICE, 'dist/mail/mime.js'));
const { SmtpPool } = require(path.join(SERVICE, 'dist/mail/smtp-client.js'));
const { subscriptionLinks } = require(path.join(SERVICE, 'dist/subscribers/links.js'));
const { UnsubscribeTokens, DEV_UNSUBSCRIBE_LINK_SECRET } = require(
  path.join(SERVICE, 'dist/subscribers/unsubscribe-tokens.js'),
);
const { dkimSign, parseDkimPrivateKey } = require(path.join(SERVICE, 'dist/mail/dkim.js'));
const { DEV_DKIM_PRIVATE_KEY, DEV_DKIM_SELECTOR } = require(
  path.join(SERVICE, 'dist/mail/dkim-development-key.js'),
);
const { SMTPServer } = require(require.resolve('smtp-server', { paths: [SERVICE] }));
const nodemailer = require(require.resolve('nodemailer', { paths: [SERVICE] }));

/** The sender's own links (the stack runs with the development secret), so both sides compose the same mail. */
const unsubscribeTokens = new UnsubscribeTokens(DEV_UNSUBSCRIBE_LINK_SECRET);
/** The service's sender address (its default MAIL_FROM). */
export const FROM = 'IR Portal <announcements@irportal.local>';
/** The key the stack signs with (the development one, for MAIL_FROM's domain): the signed floor's. */
const DKIM_KEY = {
  domain: 'irportal.local',
  selector: DEV_DKIM_SELECTOR,
  privateKey: parseDkimPrivateKey(DEV_DKIM_PRIVATE_KEY),
};

/**
 * DKIM signatures per second on this machine: `subscriber`'s mail (`mailOf`) signed `count` times with
 * `concurrency` in flight (as the sender's slots): the RSA work every compliant mail pays, on libuv's thread
 * pool as the sender does it.
 */
export async function dkimSignRate(subscriber, mailOf, count = 2000, concurrency = 20) {
  const raw = composeMail({
    from: parseMailbox(FROM),
    to: subscriber.email,
    content: mailOf(subscriber),
  }).raw;
  const items = Array.from({ length: count }, (_, n) => n);
  const ms = await sendAll(items, () => dkimSign(raw, DKIM_KEY), concurrency);
  return Math.round((count * 1000) / ms);
}

/** Starts the SMTP server on a free port of 127.0.0.1. */
export async function startSmtpSink() {
  const arrivals = new Map(); // address -> [ms...]
  let accepted = 0;
  let bytes = 0;
  let connectionErrors = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      stream.on('data', (chunk) => (bytes += chunk.length));
      stream.on('end', () => {
        const at = Date.now();
        for (const r of session.envelope.rcptTo) {
          const list = arrivals.get(r.address) ?? [];
          list.push(at);
          arrivals.set(r.address, list);
        }
        accepted++;
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A client's dropped connection is re-emitted on the server; count it rather than crash the run.
  server.on('error', () => connectionErrors++);
  return {
    port: server.server.address().port,
    accepted: () => accepted,
    bytes: () => bytes,
    connectionErrors: () => connectionErrors,
    /** When each of `address`'s mails arrived (ms), in order. */
    arrivals: (address) => arrivals.get(address) ?? [],
    /** When `address`'s first mail at or after `after` (ms) arrived, if one did. */
    firstArrival: (address, after) => arrivals.get(address)?.find((at) => at >= after),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Raw nodemailer, pooled as the service's defaults are (5 connections), to the sink. */
export const rawTransport = (port) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    ignoreTLS: true,
    pool: true,
    maxConnections: 5,
    maxMessages: Infinity,
  });

/** Runs `send` for every item, `concurrency` at once; the ms it took. */
export async function sendAll(items, send, concurrency = 10) {
  let next = 0;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await send(items[next++]);
    }),
  );
  return Date.now() - start;
}

/** The mail the service sends a subscriber ({ id, email }) of `stock` about `announcement`: its own template. */
export function serviceMailOf({ stock, announcement, publicBaseUrl }) {
  return (subscriber) =>
    announcementMail({
      stock,
      announcement,
      publicBaseUrl,
      ...subscriptionLinks(publicBaseUrl, unsubscribeTokens.forSubscriber(subscriber.id)),
    });
}

/** The sender's SMTP client as the stack configures it (5 connections, pipelining), to the sink. */
export const smtpPool = (port) =>
  new SmtpPool({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    requireTLS: false,
    maxConnections: 5,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });

/**
 * The floor: every subscriber's mail composed first, then only the SMTP sends timed (with `signed`, each
 * mail DKIM-signed in the timed loop, as every mail the sender sends is: the floor of a compliant sender), through the sender's
 * own pipelining pool (5 connections) with as many mails in flight as the sender's slots (SEND_CONCURRENCY
 * 20): the fastest this machine moves the same bytes over SMTP; ms.
 */
export async function smtpOnlyFloor(port, subscribers, mailOf, { signed = false } = {}) {
  const from = parseMailbox(FROM);
  const composed = new Map(
    subscribers.map((s) => [s, composeMail({ from, to: s.email, content: mailOf(s) }).raw]),
  );
  const pool = smtpPool(port);
  try {
    return await sendAll(
      subscribers,
      async (s) =>
        pool.send(
          { from: from.address, to: [s.email] },
          signed ? await dkimSign(composed.get(s), DKIM_KEY) : composed.get(s),
        ),
      20,
    );
  } finally {
    pool.close();
  }
}

/**
 * One announcement of bench stock `i` sent by email to `count` confirmed subscribers (its existing ones, and
 * `many-<n>@bench.example` up to `count`): the subscribers are added, the stock's newest announcement read
 * through the gateway, its send request produced as the Send button does (on
 * `announcement.priority-send-requested` for a price-sensitive announcement), and the clock stopped
 * when the sink has accepted `count` more mails. Returns { startedAt, ms, mailBytes, subscribers, mailOf }:
 * `subscribers` ({ id, email }) and `mailOf` make the same mails for the baselines.
 */
export async function sendAnnouncement({ pg, producer, session, sink, i, count, timeoutMs = 600_000 }) {
  const stockId = stockIdOf(i);
  await pg.query(
    `INSERT INTO email_marketing.subscribers (stock_id, email, status, confirmed_at)
     SELECT $1, 'many-' || n || '@bench.example', 'confirmed', now()
     FROM generate_series(1, $2::int - (SELECT count(*)::int FROM email_marketing.subscribers
                                        WHERE stock_id = $1 AND status = 'confirmed')) AS n
     ON CONFLICT DO NOTHING`,
    [stockId, count],
  );
  const combinedTicker = `${tickerOf(i)}:ASX`;
  const list = await (
    await fetch(`${session.base}/api/Announcement/list/${combinedTicker}`, {
      headers: { cookie: session.cookie },
    })
  ).json();
  const announcement = list.announcements[0];
  const bytesBefore = sink.bytes();
  const acceptedBefore = sink.accepted();
  const startedAt = Date.now();
  const { topic, key, value } = manualSendRequest(i, announcement);
  await producer.send({ topic, messages: [{ key, value: JSON.stringify(value) }] });
  while (sink.accepted() - acceptedBefore < count) {
    if (Date.now() - startedAt > timeoutMs)
      throw new Error(`${sink.accepted() - acceptedBefore} of ${count} mails after ${timeoutMs / 1000} s`);
    await sleep(20);
  }
  const ms = Date.now() - startedAt;
  const subscribers = (
    await pg.query(
      `SELECT id, email FROM email_marketing.subscribers WHERE stock_id = $1 AND status = 'confirmed'`,
      [stockId],
    )
  ).rows;
  const mailOf = serviceMailOf({
    stock: { ticker: tickerOf(i), exchange: 'ASX', companyName: `Bench ${i} Limited`, companyLogoUrl: '' },
    announcement,
    publicBaseUrl: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000',
  });
  return { startedAt, ms, mailBytes: Math.round((sink.bytes() - bytesBefore) / count), subscribers, mailOf };
}
