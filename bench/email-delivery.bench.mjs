// Email delivery (issue 9):
//  1. alert latency end to end: the ASX stand-in publishes an announcement of one of 2,000 polled stocks
//     (whole-market source asx2, 1 s poll interval), each stock with a confirmed subscriber and the Email
//     switches on -> the first mail to that subscriber accepted by the SMTP server. Goal: p95 <= 2 s. The
//     physical limit measured in the same run: one market feed read + one raw Kafka hop + one raw SMTP send.
//  2. sender throughput: one stock's 10,000 confirmed subscribers through the sender (one process, the
//     stack's defaults: SMTP_POOL_SIZE 5, SEND_CONCURRENCY 10) against raw nodemailer pooled sending of
//     the same 10,000 mails (the service's template, each subscriber's links) to the same server (5
//     connections, 10 at once), composed by nodemailer. Goal: ratio >= 0.8x. Also the floor: the same
//     mails composed beforehand, so only SMTP is timed.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as infra from '../deploy/local/infra.mjs';
import * as stack from '../scripts/stack.mjs';
import { feedRead, watchDetection } from './detection.mjs';
import {
  publishStocks,
  startBenchStack,
  setSource,
  signIn,
  sleep,
  summary,
  tickerOf,
  waitForCount,
} from './lib.mjs';
import { figure, writeResult } from './figures.mjs';
import { dkimSignRate, FROM, rawTransport, sendAll, sendAnnouncement, smtpOnlyFloor } from './smtp.mjs';
import { startBenchVendors } from './vendors.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const STOCKS = Number(process.env.BENCH_STOCKS ?? 2000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const INTERVAL_MS = Number(process.env.BENCH_POLL_INTERVAL_MS ?? 1000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const base = `http://127.0.0.1:${process.env.GATEWAY_PORT}`;

// ---- The SMTP server: accepts everything, keeps when each recipient's mail arrived, parses nothing. ----
// The ASX stand-in beside it.
const { sink, standIn } = await startBenchVendors({ smtp: true, pollIntervalMs: INTERVAL_MS });

const { pg, kafka, producer } = await startBenchStack(stack, {
  envFile: ENV_FILE,
  database: 'irportal_bench',
});
let watch;
const subscriberOf = (i) => `sub-${i}@bench.example`;
try {
  const session = await signIn(base);
  // The whole-market source; automatic-send limits high enough that no sample is held back.
  await setSource(session, 'asx2', { hourly: 1000, daily: 10_000 });

  // Each stock has one old announcement (two days old: stored by the first market poll, never auto-sent).
  for (let i = 1; i <= STOCKS; i++) {
    standIn.publish({
      ticker: tickerOf(i),
      headline: `Bench company ${i} listing`,
      releasedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
  }
  await producer.connect();
  await publishStocks(producer, STOCKS, {
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: true,
  });
  await waitForCount(
    pg,
    'bench stocks known to the email service',
    `SELECT count(*)::int AS n FROM email_marketing.stocks WHERE ticker LIKE 'BN%'`,
    STOCKS,
  );
  await pg.query(
    `INSERT INTO email_marketing.subscribers (stock_id, email, status, confirmed_at)
     SELECT s.id, 'sub-' || ltrim(right(s.id::text, 12), '0') || '@bench.example', 'confirmed', now()
     FROM email_marketing.stocks s WHERE s.ticker LIKE 'BN%' ON CONFLICT DO NOTHING`,
  );
  await waitForCount(
    pg,
    'bench stocks in the announcements projection',
    `SELECT count(*)::int AS n FROM announcements.stocks WHERE ticker LIKE 'BN%' AND poll_asx`,
    STOCKS,
  );
  await waitForCount(
    pg,
    'the bench stocks’ first announcements stored',
    `SELECT count(*)::int AS n FROM announcements.announcements a JOIN announcements.stocks s ON s.id = a.stock_id WHERE s.ticker LIKE 'BN%'`,
    STOCKS,
  );
  await sleep(3000);

  // ---- 1. Alert latency: publish -> first subscriber mail accepted ----
  const latencyMs = [];
  for (let k = 0; k < SAMPLES; k++) {
    const i = 1 + Math.floor(Math.random() * STOCKS);
    const published = Date.now();
    standIn.publish({
      ticker: tickerOf(i),
      headline: `Bench alert ${k} ${randomUUID().slice(0, 8)}`,
      priceSensitive: k % 2 === 0,
    });
    const deadline = published + 30_000;
    let at;
    while (!(at = sink.firstArrival(subscriberOf(i), published))) {
      if (Date.now() > deadline) throw new Error(`no mail to ${subscriberOf(i)} within 30 s of publishing`);
      await sleep(5);
    }
    latencyMs.push(at - published);
    await sleep(Math.random() * INTERVAL_MS);
  }

  // The physical limit: a market feed read + a raw Kafka hop + a raw SMTP send on an open connection.
  watch = await watchDetection(kafka);
  const raw = rawTransport(sink.port);
  await raw.sendMail({
    from: 'bench@bench.example',
    to: 'warm@bench.example',
    subject: 'warm',
    text: 'warm',
  });
  const limitMs = [];
  for (let k = 0; k < 20; k++) {
    const readMs = await feedRead(standIn);
    const hopMs = await watch.hop(producer);
    const t1 = performance.now();
    await raw.sendMail({
      from: 'bench@bench.example',
      to: `limit-${k}@bench.example`,
      subject: 'limit',
      text: 'limit',
    });
    limitMs.push(readMs + hopMs + (performance.now() - t1));
  }

  // ---- 2. 10,000 subscribers of one stock through the sender ----
  const send = await sendAnnouncement({ pg, producer, session, sink, i: 1, count: SUBSCRIBERS });
  const { subscribers, mailOf, mailBytes } = send;
  const senderMs = send.ms;

  // Raw nodemailer: the same 10,000 mails (the stock's mail rendered by the service's own template with each
  // subscriber's links), 10 at once over 5 pooled connections, composed by nodemailer as an application
  // would (the baseline); then the same mails composed beforehand, so only SMTP is timed (the floor).
  const rawBytesBefore = sink.bytes();
  const rawMs = await sendAll(subscribers, async (s) => {
    const mail = mailOf(s);
    await raw.sendMail({
      from: FROM,
      to: s.email,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers,
    });
  });
  const rawMailBytes = Math.round((sink.bytes() - rawBytesBefore) / subscribers.length);
  const floorMs = await smtpOnlyFloor(sink.port, subscribers, mailOf);
  // What DKIM adds to every mail (issue 36): the same floor with each mail signed in the loop, and the
  // signatures alone.
  const signedFloorMs = await smtpOnlyFloor(sink.port, subscribers, mailOf, { signed: true });
  const signRate = await dkimSignRate(subscribers[0], mailOf);
  raw.close();

  const latency = summary(latencyMs);
  const limit = summary(limitMs);
  const senderRate = Math.round((SUBSCRIBERS * 1000) / senderMs);
  const rawRate = Math.round((subscribers.length * 1000) / rawMs);
  const floorRate = Math.round((subscribers.length * 1000) / floorMs);
  const signedFloorRate = Math.round((subscribers.length * 1000) / signedFloorMs);
  const result = {
    benchmark: 'email-delivery',
    at: new Date().toISOString(),
    stocks: STOCKS,
    poll_interval_ms: INTERVAL_MS,
    alert_latency_publish_to_first_mail_ms: latency,
    physical_limit_feed_read_kafka_hop_smtp_send_ms: limit,
    alert_goal: 'p95 <= 2000 ms',
    alert_goal_met: latency.p95 <= 2000,
    subscribers: SUBSCRIBERS,
    mail_bytes: mailBytes,
    sender_ms: senderMs,
    sender_mails_per_second: senderRate,
    raw_nodemailer_ms: rawMs,
    raw_mails_per_second: rawRate,
    raw_mail_bytes: rawMailBytes,
    smtp_only_precomposed_ms: floorMs,
    smtp_only_mails_per_second: floorRate,
    ratio_to_smtp_only: +(senderRate / floorRate).toFixed(2),
    smtp_dkim_signed_ms: signedFloorMs,
    smtp_dkim_signed_mails_per_second: signedFloorRate,
    ratio_to_smtp_dkim_signed: +(senderRate / signedFloorRate).toFixed(2),
    dkim_signatures_per_second: signRate,
    throughput_ratio: +(senderRate / rawRate).toFixed(2),
    throughput_goal: 'ratio >= 0.8',
    throughput_goal_met: senderRate / rawRate >= 0.8,
    smtp_connection_errors: sink.connectionErrors(),
  };
  const B = 'email-delivery';
  writeResult(B, result, [
    figure(B, 'alert: publish → first mail p95', latency.p95, 'ms', {
      goal: { max: 2000 },
      ratio: { value: latency.p95 / limit.p95, better: 'lower' },
    }),
    figure(B, `sender, ${SUBSCRIBERS} subscribers`, senderRate, 'mails/s', {
      ratio: { value: senderRate / floorRate, better: 'higher' },
    }),
    figure(B, 'sender ÷ SMTP-only floor', senderRate / floorRate, '×', { goal: { min: 0.8 } }),
    figure(B, 'sender ÷ raw nodemailer', senderRate / rawRate, '×', { goal: { min: 0.8 } }),
    figure(B, 'SMTP floor with each mail DKIM-signed', signedFloorRate, 'mails/s', {
      ratio: { value: signedFloorRate / floorRate, better: 'higher' },
    }),
    figure(B, 'sender ÷ DKIM-signed SMTP floor', senderRate / signedFloorRate, '×'),
    figure(B, 'DKIM signatures/s (thread pool, 20 at once)', signRate, 'signatures/s'),
  ]);
  console.log(
    `alert latency (publish -> first mail accepted), ${SAMPLES} samples: p50 ${latency.p50} ms, p95 ${latency.p95} ms (goal p95 <= 2000 ms)`,
  );
  console.log(`physical limit (feed read + Kafka hop + SMTP send): p50 ${limit.p50} ms, p95 ${limit.p95} ms`);
  console.log(
    `DKIM: the floor with each mail signed ${signedFloorMs} ms (${signedFloorRate}/s); ${signRate} signatures/s alone`,
  );
  console.log(
    `${SUBSCRIBERS} subscribers: sender ${senderMs} ms (${senderRate}/s), raw nodemailer ${rawMs} ms (${rawRate}/s), ratio ${result.throughput_ratio} (goal >= 0.8); SMTP only (mails composed beforehand) ${floorMs} ms (${floorRate}/s), ratio ${result.ratio_to_smtp_only}; ${mailBytes} vs ${rawMailBytes} bytes a mail`,
  );
} finally {
  await watch?.disconnect().catch(() => {});
  await producer.disconnect().catch(() => {});
  await pg.end().catch(() => {});
  await stack.down();
  await infra.down({ envFile: ENV_FILE });
  await standIn.close();
  await sink.close();
}
