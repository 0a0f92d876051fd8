// A simulated scale run (issue 30): 40,000 polled ASX tickers on the whole-market source (asx2) across 8
// poller processes, and one large send across 4 sender processes, every role in a process of its own as the
// Kubernetes Deployments run them (deploy/k8s.mjs), on this machine with the stand-ins: the ASX stand-in
// and the SMTP server run inside the bench process.
//  1. Detection overhead beyond the poll tick (bench/detection.mjs defines it, as the announcements-detection
//     bench does), against a market feed read plus a raw Kafka hop. Goal (issue 8's): p95 <= 250 ms.
//  2. Mails per second per sender: 10,000 subscribers of one stock, the send's batches spread over the 4
//     senders by their Kafka partitions; each sender's mails (deliveries.claimed_by) over the time from the
//     send request to its last accepted mail. Against the SMTP-only floor measured in the same run (the same
//     mails composed beforehand, raw nodemailer, 5 connections, 10 at once: bench/smtp.mjs).
//  3. Peak RSS and CPU of every process, per role (bench/process-usage.mjs), written to
//     deploy/resources.json, from which deploy/k8s.mjs sets each Deployment's requests and limits; the bench
//     regenerates deploy/k8s/ with them.
// Everything runs on ports of its own (21000-25000: a broker on 21092, an embedded PostgreSQL on 21432, the
// gateway on 21600, services' health ports at +18000), so it never meets a test run's ports or database.
// Below Linux's ephemeral range (32768-60999): with 20 processes' connections open, a fixed port in that
// range can be taken as a client connection's local port, and a service then fails to listen (EADDRINUSE).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as infra from '../deploy/local/infra.mjs';
import { feedReadPlusHop, sampleDetection, watchDetection } from './detection.mjs';
import {
  publishStocks,
  startBenchStack,
  setSource,
  signIn,
  summary,
  tickerOf,
  waitForCount,
} from './lib.mjs';
import { figure, writeResult } from './figures.mjs';
import { sampleProcesses } from './process-usage.mjs';
import { sendAnnouncement, smtpOnlyFloor } from './smtp.mjs';
import { startBenchVendors } from './vendors.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'services/manifest.json'), 'utf8'));

const STOCKS = Number(process.env.BENCH_SCALE_STOCKS ?? 40_000);
const POLLERS = Number(process.env.BENCH_SCALE_POLLERS ?? 8);
const SENDERS = Number(process.env.BENCH_SCALE_SENDERS ?? 4);
const SUBSCRIBERS = Number(process.env.BENCH_SCALE_SUBSCRIBERS ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 40);
// Two ticks a second would queue on two cores with 40,000 stocks listed per tick and per market read; the
// overhead is measured beyond the tick, so the interval sets the run's length, not the figure.
const INTERVAL_MS = Number(process.env.BENCH_SCALE_POLL_INTERVAL_MS ?? 2000);
// Old announcements of the first tickers, filling the market feed's pages as a trading day does.
const BACKGROUND = Number(process.env.BENCH_SCALE_BACKGROUND ?? 2000);

// Its own ports, broker, database server and folder, whatever `make bench` set for the other benches.
Object.assign(process.env, {
  INFRA_DIR: '.local/bench-scale',
  KAFKA_PORT: '21092',
  KAFKA_CONTROLLER_PORT: '21093',
  PG_PORT: '21432',
  GATEWAY_PORT: '21600',
  HEALTH_PORT_OFFSET: '18000',
  // Every consumer role gets work on each of its processes: partitions >= the most processes of one role.
  KAFKA_PARTITIONS: String(Math.max(POLLERS, SENDERS)),
  POLL_INTERVAL_MS: String(INTERVAL_MS),
  DATA_DIR: path.join(ROOT, '.local', 'bench-scale-data', 'announcements'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
// scripts/stack.mjs reads the ports when it is loaded: after they are set.
const stack = await import('../scripts/stack.mjs');
const ENV_FILE = path.join(ROOT, '.local', 'bench-scale.env');
const RESOURCES_FILE = path.join(ROOT, 'deploy', 'resources.json');
const say = (line) => console.log(`[scale] ${line}`);
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

const { sink, standIn } = await startBenchVendors({ smtp: true, dataDir: process.env.DATA_DIR });

const { pg, kafka, producer } = await startBenchStack(stack, {
  envFile: ENV_FILE,
  database: 'irportal_bench_scale',
});
let watch;
let sampler;
try {
  // Every role in a process of its own, as each is a Deployment: the two services with several roles are
  // replaced by one process per role (their demo data is seeded already).
  for (const [service, roles] of [
    ['announcements', { api: 1, scheduler: 1, poller: POLLERS }],
    ['email-marketing', { api: 1, sender: SENDERS }],
  ]) {
    await stack.stopOne(service);
    for (const [role, instances] of Object.entries(roles))
      await stack.startOne(service, { roles: role, instances });
  }
  const processes = deployedProcesses();
  say(`${processes.length} processes up at ${elapsed()}: ${processes.map((p) => p.name).join(', ')}`);
  sampler = sampleProcesses(processes);

  // ---- import: 40,000 stocks reach the projections, their initial polls complete, the first market read
  // stores the background ----
  sampler.phase('import');
  const session = await signIn(`http://127.0.0.1:${process.env.GATEWAY_PORT}`);
  await setSource(session, 'asx2');
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  for (let i = 1; i <= BACKGROUND; i++)
    standIn.publish({ ticker: tickerOf(i), headline: `Bench company ${i} listing`, releasedAt: yesterday });
  await producer.connect();
  await publishStocks(producer, STOCKS);
  say(`${STOCKS} stock.upserted sent at ${elapsed()}`);
  for (const [what, query, want] of [
    [
      'polled bench stocks in announcements',
      `SELECT count(*)::int AS n FROM announcements.stocks WHERE ticker LIKE 'BN%' AND poll_asx`,
      STOCKS,
    ],
    [
      'bench stocks in email-marketing',
      `SELECT count(*)::int AS n FROM email_marketing.stocks WHERE ticker LIKE 'BN%'`,
      STOCKS,
    ],
    // A stock is polled once its initial poll (its history, per stock) has completed.
    [
      'initial polls completed',
      `SELECT count(*)::int AS n FROM announcements.initial_polls ip JOIN announcements.stocks s ON s.id = ip.stock_id WHERE s.ticker LIKE 'BN%' AND ip.status = 'completed'`,
      STOCKS,
    ],
    [
      'the background announcements stored',
      `SELECT count(*)::int AS n FROM announcements.announcements a JOIN announcements.stocks s ON s.id = a.stock_id WHERE s.ticker LIKE 'BN%'`,
      BACKGROUND,
    ],
  ]) {
    await waitForCount(pg, what, query, want, 300_000, (n) =>
      say(`${what}: ${n} of ${want} at ${elapsed()}`),
    );
    say(`${what}: ${want} at ${elapsed()}`);
  }

  // ---- detection: announcements published at random phases of the interval ----
  sampler.phase('detection');
  watch = await watchDetection(kafka);
  const { overheadMs, totalMs } = await sampleDetection({
    standIn,
    watch,
    tickerOf,
    stocks: STOCKS,
    samples: SAMPLES,
    intervalMs: INTERVAL_MS,
    onSample: (k, total, overhead) =>
      k % 10 === 0 &&
      say(`detection ${k}/${SAMPLES}: last ${total} ms from publish, ${overhead ?? '-'} ms beyond the tick`),
  });
  const limitMs = await feedReadPlusHop({ standIn, watch, producer });

  // ---- send: one stock's subscribers over the senders ----
  sampler.phase('send');
  say(`sending to ${SUBSCRIBERS} subscribers at ${elapsed()}`);
  const send = await sendAnnouncement({ pg, producer, session, sink, i: 1, count: SUBSCRIBERS });
  const usage = sampler.stop();
  sampler = undefined;
  const { rows: bySender } = await pg.query(
    `SELECT claimed_by AS sender, count(*)::int AS mails,
            (extract(epoch FROM max(accepted_at)) * 1000)::float8 AS last_ms
     FROM email_marketing.deliveries
     WHERE status = 'sent' AND queued_at >= to_timestamp($1::float8 / 1000)
     GROUP BY claimed_by ORDER BY claimed_by`,
    [send.startedAt],
  );
  const perSender = bySender.map((r) => ({
    sender: r.sender,
    mails: r.mails,
    mailsPerSecond: Math.round((r.mails * 1000) / (r.last_ms - send.startedAt)),
  }));

  // The floor, the same mails with only SMTP timed, while the stack goes on polling.
  const floorMs = await smtpOnlyFloor(sink.port, send.subscribers, send.mailOf);
  const floorRate = Math.round((send.subscribers.length * 1000) / floorMs);

  const overhead = summary(overheadMs);
  const total = summary(totalMs);
  const limit = summary(limitMs);
  const deployments = byDeployment(usage);
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}, Node ${process.version}`;
  const at = new Date().toISOString();
  const run = {
    stocks: STOCKS,
    pollers: POLLERS,
    senders: SENDERS,
    subscribers: SUBSCRIBERS,
    pollIntervalMs: INTERVAL_MS,
  };
  const result = {
    benchmark: 'scale',
    at,
    machine,
    ...run,
    load_average: os.loadavg().map((x) => +x.toFixed(1)),
    detection_overhead_beyond_tick_ms: overhead,
    detection_total_from_publish_ms: total,
    physical_limit_feed_read_plus_kafka_hop_ms: limit,
    ratio_p95: +(overhead.p95 / limit.p95).toFixed(1),
    goal: 'p95 overhead <= 250 ms',
    goal_met: overhead.p95 <= 250,
    send_ms: send.ms,
    mails_per_second_all_senders: Math.round((SUBSCRIBERS * 1000) / send.ms),
    per_sender: perSender.map((s) => ({
      ...s,
      ratio_to_smtp_only: +(s.mailsPerSecond / floorRate).toFixed(2),
    })),
    smtp_only_mails_per_second: floorRate,
    processes: usage,
    deployments,
  };
  const B = 'scale';
  writeResult(B, result, [
    figure(B, `detection overhead p95, ${POLLERS} pollers`, overhead.p95, 'ms', {
      goal: { max: 250 },
      ratio: { value: overhead.p95 / limit.p95, better: 'lower' },
    }),
    figure(B, `mails/s, all ${perSender.length} senders`, (SUBSCRIBERS * 1000) / send.ms, 'mails/s', {
      ratio: { value: (SUBSCRIBERS * 1000) / send.ms / floorRate, better: 'higher' },
    }),
  ]);
  writeResources({ at, machine, run, deployments });

  console.log(
    `${STOCKS} polled stocks on asx2 over ${POLLERS} pollers, poll interval ${INTERVAL_MS} ms, ${SAMPLES} announcements`,
  );
  console.log(
    `overhead beyond the tick: p50 ${overhead.p50} ms, p95 ${overhead.p95} ms (goal <= 250 ms: ${result.goal_met ? 'met' : 'not met'})`,
  );
  console.log(`publish -> detected:      p50 ${total.p50} ms, p95 ${total.p95} ms`);
  console.log(
    `physical limit (feed read + Kafka hop): p50 ${limit.p50} ms, p95 ${limit.p95} ms; ratio p95 ${result.ratio_p95}x`,
  );
  console.log(
    `${SUBSCRIBERS} subscribers over ${SENDERS} senders: ${send.ms} ms, ${result.mails_per_second_all_senders} mails/s in all; SMTP only ${floorRate} mails/s`,
  );
  for (const s of result.per_sender)
    console.log(
      `  ${s.sender}: ${s.mails} mails, ${s.mailsPerSecond} mails/s, ${s.ratio_to_smtp_only}x the SMTP-only floor`,
    );
  for (const [name, d] of Object.entries(deployments))
    console.log(
      `  ${name.padEnd(26)} x${d.instances}  RSS steady ${d.rssMiB.steady} MiB, peak ${d.rssMiB.peak} MiB; CPU avg ${d.cpuMillicores.avg}m (${d.busiestPhase}), peak ${d.cpuMillicores.peak}m`,
    );
} finally {
  sampler?.stop();
  await watch?.disconnect().catch(() => {});
  await producer.disconnect().catch(() => {});
  await pg.end().catch(() => {});
  await stack.down();
  await infra.down({ envFile: ENV_FILE });
  await standIn.close();
  await sink.close();
}

/**
 * The stack's processes that are Deployments (not the stand-ins), each with the Deployment it is an
 * instance of: `<service>-<role>` (a service's main process runs its manifest roles, one here) or `gateway`.
 */
function deployedProcesses() {
  const state = JSON.parse(fs.readFileSync(path.join(ROOT, '.local', 'stack', 'state.json'), 'utf8'));
  const roles = new Map(manifest.services.map((s) => [s.name, s.roles]));
  const out = [];
  for (const p of state.processes) {
    if (p.name === 'gateway') out.push({ name: p.name, pid: p.pid, deployment: 'gateway' });
    const own = p.extra ? p.roles : roles.get(p.name);
    if (!own || !infra.isAlive(p.pid)) continue;
    if (own.length !== 1) throw new Error(`${p.name} runs roles ${own.join(', ')}: one role a process here`);
    out.push({ name: p.name, pid: p.pid, deployment: `${p.service ?? p.name}-${own[0]}` });
  }
  return out;
}

/**
 * Per Deployment, its busiest instance's figures: RSS steady and peak (MiB), CPU average over the phase in
 * which the role worked hardest and peak over 5 s (millicores).
 */
function byDeployment(usage) {
  const out = {};
  for (const p of usage) {
    const phases = Object.entries(p.phases).filter(([name]) => name !== 'start');
    if (!phases.length) throw new Error(`${p.name} (pid ${p.pid}) was gone before the run's phases`);
    const [busiestPhase, busiest] = phases.reduce((a, b) =>
      b[1].avgMillicores > a[1].avgMillicores ? b : a,
    );
    const d = (out[p.deployment] ??= {
      instances: 0,
      rssMiB: { steady: 0, peak: 0 },
      cpuMillicores: { avg: 0, peak: 0 },
      busiestPhase,
    });
    d.instances++;
    d.rssMiB.steady = Math.max(d.rssMiB.steady, p.rssMiB.steady);
    d.rssMiB.peak = Math.max(d.rssMiB.peak, p.rssMiB.peak);
    if (busiest.avgMillicores >= d.cpuMillicores.avg) {
      d.cpuMillicores.avg = busiest.avgMillicores;
      d.busiestPhase = busiestPhase;
    }
    d.cpuMillicores.peak = Math.max(d.cpuMillicores.peak, ...phases.map(([, v]) => v.peakMillicores));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** deploy/resources.json, then deploy/k8s/ generated again from it. */
function writeResources({ at, machine, run, deployments }) {
  const doc = {
    $comment:
      'Written by bench/scale.bench.mjs (make bench): the RSS and CPU measured per Deployment (its busiest instance) in one scale run. deploy/k8s.mjs sets requests and limits from these figures (its resourcesOf says the rule). Commit it with deploy/k8s/ after a run.',
    at,
    machine,
    run,
    deployments,
  };
  fs.writeFileSync(RESOURCES_FILE, `${JSON.stringify(doc, null, 2)}\n`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'deploy', 'k8s.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('node deploy/k8s.mjs failed after writing deploy/resources.json');
  say(`wrote ${path.relative(ROOT, RESOURCES_FILE)} and deploy/k8s/`);
}
