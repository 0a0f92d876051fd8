// Reporting season's morning burst (issue 35): most ASX companies lodge results within one hour, so the
// portal's hardest hour is a burst. 2,000 polled stocks on the whole-market source (asx2, 1 s poll), ANNOUNCEMENTS
// (600) of distinct stocks published at the ASX stand-in over a simulated hour (BURST_HOUR_MS, 10 minutes:
// the hour at 6× speed) with a morning's shape (a bell over the hour whose peak minute has 50), every third
// price-sensitive, each stock with 100-5,000 confirmed subscribers (log-uniform; BURST_SCALE scales them),
// the Email switches on, so every announcement is auto-sent to its stock's subscribers. When the peak
// begins, a routine announcement of a stock with 10,000 subscribers starts a send that is still running
// while the peak's price-sensitive announcements arrive.
//
// Per announcement: publish -> its first mail at the SMTP server (in this process), publish -> its last.
// Reported per kind (price-sensitive, routine): first-mail p50/p95, last-mail p95; mails lost (a subscriber
// never mailed) and doubled; mails/s over the burst against the SMTP-only floor of the same machine; and the
// CPU of every process of the stack over the burst, and a CPU profile of the busiest (email-marketing's,
// or BURST_PROFILE's; bench/profile.mjs) summarised by package and function: where the time goes.
// BURST_SENDERS=2 adds a process of the `sender` role (the scaling with a second sender). Goal:
// price-sensitive first mail p95 <= 2 s through the burst, 0 lost, doubles within the in-flight window.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as stack from '../scripts/stack.mjs';
import { figure as figureOf, RESULTS_DIR, writeResult } from './figures.mjs';
import {
  firstOnTopic,
  publishStocks,
  startBenchStack,
  setSource,
  signIn,
  sleep,
  stockIdOf,
  summary,
  tickerOf,
  untilQuiet,
  waitForCount,
} from './lib.mjs';
import { sampleProcesses } from './process-usage.mjs';
import { profileLines, profileProcess } from './profile.mjs';
import { serviceMailOf, smtpOnlyFloor } from './smtp.mjs';
import { startBenchVendors } from './vendors.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const STOCKS = Number(process.env.BURST_STOCKS ?? 2000);
const ANNOUNCEMENTS = Number(process.env.BURST_ANNOUNCEMENTS ?? 600);
const PEAK_MINUTE = Number(process.env.BURST_PEAK_MINUTE ?? 50);
const HOUR_MS = Number(process.env.BURST_HOUR_MS ?? 600_000);
const SCALE = Number(process.env.BURST_SCALE ?? 1);
const ROUTINE_BIG = Math.round(10_000 * SCALE);
/** Sender processes: the stack's email-marketing process, and BURST_SENDERS - 1 more of the `sender` role. */
const SENDERS = Number(process.env.BURST_SENDERS ?? 1);
/** The process whose CPU profile is taken over the burst (bench/profile.mjs); `none` takes none. */
const PROFILED = process.env.BURST_PROFILE ?? 'email-marketing';
/** What a sender may have accepted at the SMTP server but not marked when it crashed: SEND_CONCURRENCY. */
const IN_FLIGHT_WINDOW = Number(process.env.SEND_CONCURRENCY ?? 20); // the sender's default (config.ts)
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const say = (m) => console.log(`[burst] ${m}`);

/** A deterministic generator, so every run publishes the same burst. */
function random(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const rand = random(35);

/**
 * When each of `count` announcements is published, in ms from the start of the simulated hour: a bell
 * (normal) over the hour, its peak 20 minutes in, wide enough that `count` announcements give `peak` in
 * the busiest minute (sigma = count / (peak * sqrt(2 pi)) minutes).
 */
function morningShape(count, peak, hourMs) {
  const minute = hourMs / 60;
  const sigma = count / (peak * Math.sqrt(2 * Math.PI));
  const at = [];
  while (at.length < count) {
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    const t = (20 + z * sigma) * minute;
    if (t >= 0 && t < hourMs) at.push(t);
  }
  return at.sort((a, b) => a - b);
}

/**
 * Subscribers of bench stock `i`: log-uniform between 100 and 5,000, scaled (about 753,000 over the 600 at 1).
 * The generator is seeded apart and stepped before its draw: the first draw of consecutive seeds lies in a
 * narrow band (0.24-0.47 for seeds 1-600), which had given every stock 250-620 subscribers, 247,000 in all.
 */
function subscribersOf(i) {
  const draw = random(Math.imul(i, 2654435761));
  draw();
  draw();
  draw();
  return Math.max(1, Math.round(100 * Math.exp(draw() * Math.log(50)) * SCALE));
}
const addressOf = (i, n) => `b${i}-${n}@burst.example`;

// The stack as a reporting-season morning finds it: its stocks' market data loaded long before. The 2,000
// stocks the bench adds would otherwise have their market history loaded during the burst (2,000 stocks ×
// the history window's trading days: 132,000 stock-days, ~11 a second on this machine class, three hours of
// the reports service and PostgreSQL's COPY), which no morning has: in production stocks join a few at a
// time. So the reports service's market jobs are off for this bench (MARKET_JOBS_DISABLED; the watchlist's
// periodic quotes with them, a small load).
process.env.MARKET_JOBS_DISABLED ??= 'true';

const { sink, standIn } = await startBenchVendors({ smtp: true, pollIntervalMs: 1000 });

const { pg, kafka, producer } = await startBenchStack(stack, {
  envFile: ENV_FILE,
  database: 'irportal_bench',
});
let sampler;
let profiling;
try {
  if (SENDERS > 1) await stack.startOne('email-marketing', { roles: 'sender', instances: SENDERS - 1 });
  const session = await signIn(`http://127.0.0.1:${process.env.GATEWAY_PORT}`);
  // The whole-market source; automatic-send limits above the burst, so none is held back.
  await setSource(session, 'asx2', { hourly: 10_000, daily: 100_000 });

  // The plan: announced stocks 1..ANNOUNCEMENTS (stock 0 of the plan is the routine 10,000's), in publish order.
  const times = morningShape(ANNOUNCEMENTS, PEAK_MINUTE, HOUR_MS);
  const peakStart = times[Math.floor(ANNOUNCEMENTS * 0.3)];
  const bigRoutine = ANNOUNCEMENTS + 1;
  const plan = times.map((at, k) => ({
    i: k + 1,
    at,
    priceSensitive: k % 3 === 0,
    subscribers: subscribersOf(k + 1),
  }));
  plan.push({ i: bigRoutine, at: peakStart - 1, priceSensitive: false, subscribers: ROUTINE_BIG, big: true });
  plan.sort((a, b) => a.at - b.at);
  const expected = plan.reduce((n, p) => n + p.subscribers, 0);
  say(
    `${STOCKS} stocks, ${plan.length} announcements over ${HOUR_MS / 60_000} min (peak minute ${PEAK_MINUTE} at 1/${60_000 / (HOUR_MS / 60)} speed), ${expected} mails`,
  );

  // Each stock has one old announcement, stored by the first market poll and never auto-sent.
  for (let i = 1; i <= STOCKS; i++)
    standIn.publish({
      ticker: tickerOf(i),
      headline: `Burst company ${i} listing`,
      releasedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
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
  for (const p of plan)
    await pg.query(
      `INSERT INTO email_marketing.subscribers (stock_id, email, status, confirmed_at)
       SELECT $1, 'b' || $2::int || '-' || n || '@burst.example', 'confirmed', now()
       FROM generate_series(1, $3::int) AS n ON CONFLICT DO NOTHING`,
      [stockIdOf(p.i), p.i, p.subscribers],
    );
  await waitForCount(
    pg,
    'the bench stocks’ first announcements stored',
    `SELECT count(*)::int AS n FROM announcements.announcements a JOIN announcements.stocks s ON s.id = a.stock_id WHERE s.ticker LIKE 'BN%'`,
    STOCKS,
  );
  // A quiet stack before the floor and the burst: the first market polls' stores and the projections done.
  await untilQuiet(ENV_FILE, { windowMs: 5000, maxCores: 0.5, maxMs: 300_000 });

  // The SMTP-only floor of this machine, before the burst (the same mails composed beforehand).
  const floorSubscribers = Array.from({ length: 5000 }, (_, n) => ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    email: `floor-${n}@floor.example`,
  }));
  const list = await (
    await fetch(`${session.base}/api/Announcement/list/${tickerOf(1)}:ASX`, {
      headers: { cookie: session.cookie },
    })
  ).json();
  const mailOf = serviceMailOf({
    stock: { ticker: tickerOf(1), exchange: 'ASX', companyName: 'Bench 1 Limited', companyLogoUrl: '' },
    announcement: list.announcements[0],
    publicBaseUrl: 'http://127.0.0.1:3000',
  });
  const floorMs = await smtpOnlyFloor(sink.port, floorSubscribers, mailOf);
  const floorRate = (floorSubscribers.length * 1000) / floorMs;
  say(`SMTP-only floor: ${Math.round(floorRate)} mails/s`);

  // ---- the burst ----
  const processes = JSON.parse(
    fs.readFileSync(path.join(ROOT, '.local', 'stack', 'state.json'), 'utf8'),
  ).processes.filter(
    (p) => !p.name.endsWith('standin') && p.name !== 'mail-inbox' && p.name !== 'email-providers',
  );
  sampler = sampleProcesses(processes);
  sampler.phase('burst');
  const profiled = processes.find((p) => p.name === PROFILED);
  if (PROFILED !== 'none' && !profiled) throw new Error(`BURST_PROFILE: no process ${PROFILED}`);
  if (profiled)
    profiling = await profileProcess(profiled.pid, { dir: RESULTS_DIR, name: `burst-${PROFILED}` });
  const acceptedBefore = sink.accepted();
  const start = Date.now();
  let progress = start;
  for (const p of plan) {
    const wait = start + p.at - Date.now();
    if (wait > 0) await sleep(wait);
    p.publishedAt = Date.now();
    standIn.publish({
      ticker: tickerOf(p.i),
      headline: `Burst ${p.priceSensitive ? 'results' : 'Appendix 3Y'} ${p.i}`,
      priceSensitive: p.priceSensitive,
    });
    if (Date.now() - progress > 30_000) {
      progress = Date.now();
      say(
        `${Math.round((Date.now() - start) / 1000)} s: ${plan.filter((x) => x.publishedAt).length} published, ${sink.accepted() - acceptedBefore} of ${expected} mails`,
      );
    }
  }
  say(`all published after ${Math.round((Date.now() - start) / 1000)} s; waiting for the mails`);
  // Every mail, however long the sending takes: progress every 30 s, and a stall (no mail for 5 minutes) ends it.
  let last = sink.accepted();
  let lastChange = Date.now();
  while (sink.accepted() - acceptedBefore < expected) {
    await sleep(1000);
    if (sink.accepted() !== last) [last, lastChange] = [sink.accepted(), Date.now()];
    if (Date.now() - lastChange > 300_000) {
      say(`no mail for 5 minutes: ${sink.accepted() - acceptedBefore} of ${expected}`);
      break;
    }
    if (Date.now() - progress > 30_000) {
      progress = Date.now();
      say(
        `${Math.round((Date.now() - start) / 1000)} s: ${sink.accepted() - acceptedBefore} of ${expected} mails`,
      );
    }
  }
  // Mails beyond one each (doubles) arrive with the rest; a moment more shows a late one.
  await sleep(5000);
  const burstMs = Date.now() - start;
  const usage = sampler.stop();
  sampler = undefined;
  const profile = await profiling?.stop();
  profiling = undefined;

  // Per announcement: first and last arrival among its stock's subscribers after its publish; lost, doubled.
  let lost = 0;
  let doubled = 0;
  for (const p of plan) {
    let first = Infinity;
    let lastAt = 0;
    for (let n = 1; n <= p.subscribers; n++) {
      const all = sink.arrivals(addressOf(p.i, n)).filter((at) => at >= p.publishedAt);
      if (!all.length) lost++;
      else {
        doubled += all.length - 1;
        first = Math.min(first, all[0]);
        lastAt = Math.max(lastAt, all[0]);
      }
    }
    p.firstMs = Number.isFinite(first) ? first - p.publishedAt : undefined;
    p.lastMs = lastAt ? lastAt - p.publishedAt : undefined;
  }
  const of = (kind) => plan.filter((p) => (kind === 'ps' ? p.priceSensitive : !p.priceSensitive));
  const summaryOf = (xs) => (xs.length ? summary(xs) : { n: 0, p50: NaN, p95: NaN, max: NaN });
  const firsts = (list) => summaryOf(list.map((p) => p.firstMs).filter((x) => x !== undefined));
  const lasts = (list) => summaryOf(list.map((p) => p.lastMs).filter((x) => x !== undefined));
  const ps = { first: firsts(of('ps')), last: lasts(of('ps')) };
  const routine = { first: firsts(of('routine')), last: lasts(of('routine')) };
  const duringBig = plan.filter(
    (p) => p.priceSensitive && p.publishedAt > plan.find((x) => x.big).publishedAt,
  );
  const big = plan.find((x) => x.big);
  const psWhileBig = firsts(duringBig.filter((p) => p.publishedAt < big.publishedAt + big.lastMs));
  const rate = ((sink.accepted() - acceptedBefore) * 1000) / burstMs;
  const busiest = [...usage].sort((a, b) => b.cpuSeconds - a.cpuSeconds);

  // Where a price-sensitive alert's time goes: publish -> stored by the poll (announcements' created_at,
  // the next tick's wait included) -> the automatic send decided (auto_send_at: the `announcement.detected`
  // hop and the decision) -> the send made (email-marketing's sends row: the send request's hop, on
  // `announcement.priority-send-requested` for a price-sensitive one, and the send's expansion) -> its
  // first mail accepted by the SMTP server (the sender's claim, render and SMTP).
  // Each hop's event is on the Kafka topic once its outbox row is published (published_at).
  const { rows: staged } = await pg.query(
    `WITH hops AS (
       SELECT payload->'announcement'->>'id' AS announcement,
              CASE topic WHEN 'announcement.detected' THEN 'detected' ELSE 'requested' END AS hop,
              min(published_at) AS published
         FROM announcements.outbox
        WHERE topic IN ('announcement.detected', 'announcement.send-requested',
                        'announcement.priority-send-requested')
        GROUP BY 1, 2)
     SELECT a.headline,
            extract(epoch FROM a.created_at) * 1000 AS stored,
            extract(epoch FROM min(d.published)) * 1000 AS detected_on_topic,
            extract(epoch FROM a.auto_send_at) * 1000 AS decided,
            extract(epoch FROM min(r.published)) * 1000 AS requested_on_topic,
            extract(epoch FROM min(s.created_at)) * 1000 AS send_made,
            extract(epoch FROM min(s.first_accepted_at)) * 1000 AS first_accepted
       FROM announcements.announcements a
       LEFT JOIN hops d ON d.announcement = a.id::text AND d.hop = 'detected'
       LEFT JOIN hops r ON r.announcement = a.id::text AND r.hop = 'requested'
       LEFT JOIN email_marketing.sends s ON s.send_guid = a.send_guid
      WHERE a.headline LIKE 'Burst %'
      GROUP BY a.id`,
  );
  // Inside publish -> stored: the feed first listing it (the ASX stand-in's stamp: the tick's wait and the
  // market read), the market poller's per-stock fan-out carrying it on `announcements.market-items-listed`
  // (the Kafka message's create time: the market poll's lookups and its publish), then the stock's poll
  // storing it.
  const fannedOut = await firstOnTopic(
    kafka,
    'announcements.market-items-listed',
    (event) => (event.items ?? []).map((item) => item.headline),
    start,
  );
  const servedOf = new Map(
    plan.flatMap((p) =>
      standIn
        .announcements(tickerOf(p.i))
        .filter((a) => a.headline.startsWith('Burst ') && a.firstServedAt)
        .map((a) => [a.headline, Date.parse(a.firstServedAt)]),
    ),
  );
  for (const r of staged) {
    r.served = servedOf.get(r.headline);
    r.fanned_out = fannedOut.get(r.headline);
  }
  const stagesOf = new Map(staged.map((r) => [r.headline, r]));
  const stage = (list, from, to) =>
    summaryOf(
      list
        .map((p) => {
          const r = stagesOf.get(`Burst ${p.priceSensitive ? 'results' : 'Appendix 3Y'} ${p.i}`);
          const at = { published: p.publishedAt, ...r };
          return at[from] != null && at[to] != null ? Number(at[to]) - Number(at[from]) : undefined;
        })
        .filter((x) => x !== undefined),
    );
  const stages = {
    published_to_stored: stage(of('ps'), 'published', 'stored'),
    published_to_served: stage(of('ps'), 'published', 'served'),
    served_to_fanned_out: stage(of('ps'), 'served', 'fanned_out'),
    fanned_out_to_stored: stage(of('ps'), 'fanned_out', 'stored'),
    stored_to_send_made: stage(of('ps'), 'stored', 'send_made'),
    stored_to_decided: stage(of('ps'), 'stored', 'decided'),
    decided_to_send_made: stage(of('ps'), 'decided', 'send_made'),
    stored_to_detected_on_topic: stage(of('ps'), 'stored', 'detected_on_topic'),
    detected_on_topic_to_decided: stage(of('ps'), 'detected_on_topic', 'decided'),
    decided_to_requested_on_topic: stage(of('ps'), 'decided', 'requested_on_topic'),
    requested_on_topic_to_send_made: stage(of('ps'), 'requested_on_topic', 'send_made'),
    send_made_to_first_accepted: stage(of('ps'), 'send_made', 'first_accepted'),
  };

  // Each send's expansion: from its transaction's start (the sends row) to its first batch message on the
  // topic (the email-marketing outbox row's published_at): the deliveries' insert, the commit and the relay.
  // Sends are expanded one after another on their request's partition, so a send request waits for every
  // expansion queued before it there.
  const { rows: expansions } = await pg.query(
    `SELECT a.price_sensitive,
            extract(epoch FROM min(o.published_at) - s.created_at) * 1000 AS ms
       FROM email_marketing.sends s
       JOIN announcements.announcements a ON a.send_guid = s.send_guid AND a.headline LIKE 'Burst %'
       JOIN email_marketing.outbox o ON o.payload->>'sendId' = s.id::text
      GROUP BY s.id, a.price_sensitive`,
  );
  const expansion = {
    price_sensitive: summaryOf(expansions.filter((e) => e.price_sensitive).map((e) => Number(e.ms))),
    routine: summaryOf(expansions.filter((e) => !e.price_sensitive).map((e) => Number(e.ms))),
  };

  const B = 'burst';
  // A run with more senders is a figure of its own (the scaling), never compared with one sender's.
  const figure = (bench, label, ...rest) =>
    figureOf(bench, SENDERS > 1 ? `${label} (${SENDERS} senders)` : label, ...rest);
  const figures = [
    figure(B, 'price-sensitive: publish → first mail p95', ps.first.p95, 'ms', { goal: { max: 2000 } }),
    figure(B, 'price-sensitive: publish → first mail p50', ps.first.p50, 'ms'),
    figure(
      B,
      `price-sensitive while the routine ${ROUTINE_BIG} send runs: first mail p95`,
      psWhileBig.p95,
      'ms',
      { goal: { max: 2000 } },
    ),
    figure(B, 'price-sensitive: publish → last mail p95', ps.last.p95, 'ms'),
    figure(B, 'routine: publish → first mail p95', routine.first.p95, 'ms'),
    figure(B, 'routine: publish → last mail p95', routine.last.p95, 'ms'),
    figure(B, 'mails lost', lost, 'mails', { goal: { max: 0 } }),
    figure(B, 'mails doubled', doubled, 'mails', { goal: { max: IN_FLIGHT_WINDOW } }),
    figure(B, 'mails/s over the burst', rate, 'mails/s', {
      ratio: { value: rate / floorRate, better: 'higher' },
    }),
  ];
  writeResult(
    B,
    {
      benchmark: B,
      at: new Date().toISOString(),
      stocks: STOCKS,
      announcements: plan.length,
      hour_ms: HOUR_MS,
      scale: SCALE,
      mails_expected: expected,
      mails_accepted: sink.accepted() - acceptedBefore,
      burst_ms: burstMs,
      smtp_only_floor_mails_per_second: Math.round(floorRate),
      price_sensitive: ps,
      routine,
      price_sensitive_while_big_routine_send: psWhileBig,
      price_sensitive_stages: stages,
      send_expansion: expansion,
      lost,
      doubled,
      senders: SENDERS,
      processes: busiest.map((p) => ({ name: p.name, cpuSeconds: p.cpuSeconds, rssMiB: p.rssMiB })),
      profile: profile && { process: PROFILED, file: profile.file, ...profile.summary },
      plan: plan.map(({ i, at, priceSensitive, subscribers, firstMs, lastMs }) => ({
        i,
        at: Math.round(at),
        priceSensitive,
        subscribers,
        firstMs,
        lastMs,
      })),
    },
    figures,
  );
  say(
    `price-sensitive first mail p50 ${ps.first.p50} ms, p95 ${ps.first.p95} ms (while the routine send ran: p95 ${psWhileBig.p95} ms); last p95 ${ps.last.p95} ms`,
  );
  say(
    `price-sensitive stages p50 / p95: published -> stored ${stages.published_to_stored.p50} / ${stages.published_to_stored.p95} ms (published -> first served by the feed ${stages.published_to_served.p50} / ${stages.published_to_served.p95}, -> fanned out ${stages.served_to_fanned_out.p50} / ${stages.served_to_fanned_out.p95}, -> stored ${stages.fanned_out_to_stored.p50} / ${stages.fanned_out_to_stored.p95}), stored -> send made ${stages.stored_to_send_made.p50} / ${stages.stored_to_send_made.p95} ms (stored -> decided ${stages.stored_to_decided.p50} / ${stages.stored_to_decided.p95}, decided -> send made ${stages.decided_to_send_made.p50} / ${stages.decided_to_send_made.p95}; on the topics: stored -> detected ${stages.stored_to_detected_on_topic.p50} / ${stages.stored_to_detected_on_topic.p95}, -> decided ${stages.detected_on_topic_to_decided.p50} / ${stages.detected_on_topic_to_decided.p95}, decided -> send requested ${stages.decided_to_requested_on_topic.p50} / ${stages.decided_to_requested_on_topic.p95}, -> send made ${stages.requested_on_topic_to_send_made.p50} / ${stages.requested_on_topic_to_send_made.p95}), send made -> first mail accepted ${stages.send_made_to_first_accepted.p50} / ${stages.send_made_to_first_accepted.p95} ms`,
  );
  say(
    `send expansion (its transaction's start -> its first batch on the topic) p50 / p95: price-sensitive ${expansion.price_sensitive.p50} / ${expansion.price_sensitive.p95} ms, routine ${expansion.routine.p50} / ${expansion.routine.p95} ms`,
  );
  say(
    `routine first mail p50 ${routine.first.p50} ms, p95 ${routine.first.p95} ms; last p95 ${routine.last.p95} ms`,
  );
  say(
    `${sink.accepted() - acceptedBefore} of ${expected} mails in ${Math.round(burstMs / 1000)} s (${Math.round(rate)}/s, floor ${Math.round(floorRate)}/s); lost ${lost}, doubled ${doubled}`,
  );
  say(`CPU over the burst: ${busiest.map((p) => `${p.name} ${p.cpuSeconds} s`).join(', ')}`);
  if (profile) {
    say(`where ${PROFILED}'s time went over the burst (its CPU profile, ${profile.file}):`);
    for (const line of profileLines(profile.summary)) say(`  ${line}`);
  }
} finally {
  sampler?.stop();
  await profiling?.stop().catch(() => {});
  await producer.disconnect().catch(() => {});
  await pg.end().catch(() => {});
  await stack.down();
  const infra = await import('../deploy/local/infra.mjs');
  await infra.down({ envFile: ENV_FILE });
  await standIn.close();
  await sink.close();
}
