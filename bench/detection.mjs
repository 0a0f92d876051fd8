// Detection latency, as the announcements-detection and scale benches measure it: the ASX stand-in publishes
// an announcement, the platform emits `announcement.detected`. The overhead is timed from the scheduler's
// market tick that could first see it (the first `announcements.poll-requested` market request whose
// `requestedAt` is at or after the publish) to the event on Kafka: what the architecture adds beyond the
// wait for the next poll, which the poll interval alone decides. The physical limit beside it: one direct
// read of the market feed (what a poll must fetch at least) plus one raw produce -> consume round trip on the
// same broker (what an event must travel at least).
import { randomUUID } from 'node:crypto';
import { sleep } from './lib.mjs';

/** An existing topic nothing consumes in a bench run: the raw round trip's. */
const PROBE_TOPIC = 'stock.archived.dlq';
const MARKET_FEED =
  '/asx-research/1.0/markets/announcements?page=0&itemsPerPage=100&priceSensitiveOnly=false';

/**
 * A consumer of its own that keeps the market ticks (requestedAt, ms), the detected headlines (headline ->
 * received at, ms) and answers the raw round trip. Resolves once it owns its partitions.
 */
export async function watchDetection(kafka) {
  const ticks = [];
  const detected = new Map();
  let roundTrip;
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}`, maxWaitTimeInMs: 20 });
  await consumer.connect();
  await consumer.subscribe({
    topics: ['announcement.detected', 'announcements.poll-requested', PROBE_TOPIC],
  });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const at = Date.now();
      if (topic === PROBE_TOPIC) {
        roundTrip?.(at);
        return;
      }
      const body = JSON.parse(message.value.toString());
      if (topic === 'announcements.poll-requested' && body.market) ticks.push(Date.parse(body.requestedAt));
      if (topic === 'announcement.detected') detected.set(body.announcement.headline, at);
    },
  });
  // Until the consumer owns its partitions, nothing it should see may happen.
  await sleep(5000);
  return {
    ticks,
    detected,
    /** One raw produce -> consume round trip on this broker, in ms. */
    async hop(producer) {
      const sent = Date.now();
      const received = new Promise((resolve) => (roundTrip = resolve));
      await producer.send({ topic: PROBE_TOPIC, messages: [{ value: 'bench' }] });
      return (await received) - sent;
    },
    disconnect: () => consumer.disconnect(),
  };
}

/**
 * Publishes `samples` announcements of random tickers (1..stocks) at random phases of the poll interval and
 * waits for each to be detected. Returns { overheadMs, totalMs }: beyond the tick, and from the publish.
 */
export async function sampleDetection({ standIn, watch, tickerOf, stocks, samples, intervalMs, onSample }) {
  const overheadMs = [];
  const totalMs = [];
  for (let k = 0; k < samples; k++) {
    const headline = `Bench detection ${k} ${randomUUID().slice(0, 8)}`;
    const ticker = tickerOf(1 + Math.floor(Math.random() * stocks));
    const published = Date.now();
    standIn.publish({ ticker, headline, priceSensitive: k % 2 === 0 });
    // A slow machine may take long; a stalled one says so: given up only after 60 market ticks since the
    // publish (two minutes at a 2 s interval), each of which read the feed that lists it, or a minute
    // without any tick.
    while (!watch.detected.has(headline)) {
      const ticksSince = watch.ticks.filter((t) => t >= published).length;
      const quietMs = Date.now() - Math.max(published, watch.ticks.at(-1) ?? published);
      if (ticksSince >= 60 || quietMs > 60_000)
        throw new Error(
          `"${headline}" was not detected in ${Math.round((Date.now() - published) / 1000)} s, ${ticksSince} market ticks after its publish`,
        );
      await sleep(5);
    }
    const at = watch.detected.get(headline);
    const tick = watch.ticks.find((t) => t >= published);
    if (tick !== undefined && tick <= at) overheadMs.push(at - tick);
    totalMs.push(at - published);
    onSample?.(k + 1, at - published, tick !== undefined && tick <= at ? at - tick : undefined);
    // Spread the publishes over the interval so they land at every phase of a tick.
    await sleep(Math.random() * intervalMs);
  }
  return { overheadMs, totalMs };
}

/** The market feed read alone, in ms (one GET of its first page, body read). */
export async function feedRead(standIn) {
  const t0 = performance.now();
  await (await fetch(`${standIn.url}${MARKET_FEED}`)).arrayBuffer();
  return performance.now() - t0;
}

/** `rounds` of the physical limit: a market feed read plus a raw Kafka hop, in ms each. */
export async function feedReadPlusHop({ standIn, watch, producer, rounds = 20 }) {
  const out = [];
  for (let k = 0; k < rounds; k++) out.push((await feedRead(standIn)) + (await watch.hop(producer)));
  return out;
}
