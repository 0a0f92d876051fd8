import { Topics } from '@irp/proto';
import {
  dropSchema,
  loadTestEnv,
  ServiceProcess,
  SmtpSink,
  startServiceProcess,
  startSmtpSink,
  waitUntil,
} from '@irp/platform/testing';
import { Client } from 'pg';
import { addConfirmedSubscribers, announcement, EventSender, stockEvent, ticker } from './email-fixtures';

// Generous: each wait ends when its condition holds (no test here has a time budget: speed is bench/'s).
jest.setTimeout(600_000);

const ROUTINE_SUBSCRIBERS = 3000;
const SENSITIVE_SUBSCRIBERS = 5;
/** A price-sensitive send large enough that the sender's lane fills (CLAIM_AHEAD) and its topic pauses. */
const LARGE_SENSITIVE_SUBSCRIBERS = 3000;
/** Mails the sender has in flight at most (SEND_CONCURRENCY). */
const IN_FLIGHT = 10;

/**
 * The priority lane (docs/adr/0016), against the real broker, database and an SMTP server: a price-sensitive
 * announcement's send overtakes a routine send already in progress. Its batches go on the priority topic, the
 * sender takes them while its routine lane is full, and its first free slots send them ahead of every routine
 * claim it holds. The SMTP server holds its answers while the price-sensitive send arrives, so the order the
 * mails reach it says which went first, however fast or slow the machine is.
 */
describe('the priority lane', () => {
  let sink: SmtpSink;
  let events: EventSender;
  let db: Client;
  let sender: ServiceProcess;

  const count = async (sql: string, params: unknown[]) =>
    (await db.query<{ n: number }>(sql, params)).rows[0].n;

  async function stockWithSubscribers(prefix: string, subscribers: number) {
    const stock = stockEvent({ ticker: ticker(prefix) });
    await events.stock(stock);
    await waitUntil(
      'the stock in the projection',
      async () =>
        (await count(`SELECT count(*)::int AS n FROM email_marketing.stocks WHERE id = $1`, [stock.id])) ===
        1,
    );
    await addConfirmedSubscribers(
      db,
      stock.id,
      Array.from({ length: subscribers }, (_, i) => `${prefix.toLowerCase()}${i}@lane.example`),
    );
    return stock;
  }

  /** Claims the sender has queued in a lane, from its /metrics (the order is the lanes' from then on). */
  const queuedClaims = async (lane: 'priority' | 'routine') => {
    const text = await (await fetch(`${sender.healthUrl}/metrics`)).text();
    // `email_claims_queued_total{lane="priority",service="email-marketing"} 5`: the registry adds `service`.
    const line = text
      .split('\n')
      .find((l) => l.startsWith('email_claims_queued_total{') && l.includes(`lane="${lane}"`));
    return Number(line?.split(' ').at(-1) ?? 0);
  };

  /** The send's deliveries with a status. */
  const deliveriesOf = (sendGuid: string, status: string) =>
    count(
      `SELECT count(*)::int AS n FROM email_marketing.deliveries d JOIN email_marketing.sends s ON s.id = d.send_id
       WHERE s.send_guid = $1 AND d.status = $2`,
      [sendGuid, status],
    );

  /**
   * Until the send's rest is written (docs/adr/0019): its first batch goes out before the rest exists, so on a
   * slow machine the first 100 mails can be out while the rest is still being expanded, and a send with nothing
   * queued then says nothing about the lanes.
   */
  const expanded = (sendGuid: string) =>
    waitUntil(
      `the send ${sendGuid} expanded`,
      async () =>
        (
          await db.query<{ expanded: boolean }>(
            `SELECT expanded FROM email_marketing.sends WHERE send_guid = $1`,
            [sendGuid],
          )
        ).rows[0]?.expanded === true,
      120_000,
    );

  beforeAll(async () => {
    await dropSchema('email_marketing');
    sink = await startSmtpSink({ parse: 'headers' });
    events = await EventSender.connect();
    db = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await db.connect();
    sender = await startServiceProcess('email-marketing', {
      roles: ['api', 'sender'],
      env: {
        SMTP_URL: sink.url,
        SEND_CONCURRENCY: String(IN_FLIGHT),
        SMTP_POOL_SIZE: '5',
        INSTANCE_ID: 'lane',
        LOG_LEVEL: 'warn',
      },
    });
  });

  afterAll(async () => {
    // A case that failed while the server held its answers leaves it holding: the sender's stop waits on them.
    sink?.resume();
    await sender?.stop().catch(() => undefined);
    await events?.close();
    await db?.end();
    await sink?.close();
  });

  it("sends a price-sensitive announcement's mails ahead of a routine send in progress", async () => {
    const routineStock = await stockWithSubscribers('RTN', ROUTINE_SUBSCRIBERS);
    const sensitiveStock = await stockWithSubscribers('PSN', SENSITIVE_SUBSCRIBERS);
    const routine = announcement(routineStock.id, { headline: 'Routine lane send', priceSensitive: false });
    const sensitive = announcement(sensitiveStock.id, {
      headline: 'Priority lane send',
      priceSensitive: true,
    });
    const isRoutine = (subject: string) => subject.endsWith(routine.headline);
    const isSensitive = (subject: string) => subject.endsWith(sensitive.headline);

    await events.sendRequested(routineStock.id, routine);
    await sink.waitFor(
      (mails) => mails.filter((m) => isRoutine(m.subject)).length >= 100,
      'the routine send under way',
      300_000,
    );
    await expanded(routine.sendGuid);
    // The server stops answering: the routine send can go no further, its mails in flight are held, and the
    // sender holds routine claims waiting for a slot.
    sink.pause();
    const routineAtPause = sink.mails.filter((m) => isRoutine(m.subject)).length;

    // The price-sensitive request arrives mid-send: expanded, announced on the priority topic and claimed by
    // the sender while the routine send is stuck (a consumer busy with routine batches would never get to it).
    await events.sendRequested(sensitiveStock.id, sensitive);
    await waitUntil(
      "the price-sensitive send's deliveries queued in the sender's priority lane",
      async () => (await queuedClaims('priority')) === SENSITIVE_SUBSCRIBERS,
      120_000,
      100,
    );
    expect(await deliveriesOf(sensitive.sendGuid, 'sending')).toBe(SENSITIVE_SUBSCRIBERS);
    expect(await deliveriesOf(routine.sendGuid, 'queued')).toBeGreaterThan(0);
    const topics = await db.query<{ topic: string; send: string }>(
      `SELECT DISTINCT o.topic, s.send_guid::text AS send FROM email_marketing.outbox o
       JOIN email_marketing.sends s ON s.id::text = o.payload->>'sendId'
       WHERE s.send_guid = ANY($1::uuid[]) AND o.topic <> $2 ORDER BY 2`,
      // Every batch message's topic (a large send's rest is asked for on its own topic: docs/adr/0019).
      [[routine.sendGuid, sensitive.sendGuid], Topics.EmailSendExpansionRequested],
    );
    expect(Object.fromEntries(topics.rows.map((r) => [r.send, r.topic]))).toEqual({
      [routine.sendGuid]: Topics.EmailDeliveriesQueued,
      [sensitive.sendGuid]: Topics.EmailPriorityDeliveriesQueued,
    });

    sink.resume();
    await sink.waitFor(
      (mails) => mails.filter((m) => isRoutine(m.subject)).length === ROUTINE_SUBSCRIBERS,
      'the routine send finished',
      480_000,
    );
    const order = sink.mails.map((m) => m.subject).filter((s) => isRoutine(s) || isSensitive(s));
    const firstSensitive = order.findIndex(isSensitive);
    const lastSensitive = order.length - 1 - [...order].reverse().findIndex(isSensitive);
    const routineBefore = order.slice(0, firstSensitive).filter(isRoutine).length;
    console.log(
      `priority lane: ${routineAtPause} routine mails at the pause, ${routineBefore} before the first ` +
        `price-sensitive one, its ${SENSITIVE_SUBSCRIBERS} mails at positions ${firstSensitive + 1}-${lastSensitive + 1} ` +
        `of ${order.length}`,
    );
    expect(order.filter(isSensitive)).toHaveLength(SENSITIVE_SUBSCRIBERS);
    // Ahead of the routine claims the sender held: the price-sensitive claims were queued in the priority lane
    // before the server answered again (the sender's own count, not the claim rows, which it writes before it
    // has read the claim's answer), so the slots freed by the resume take them first. Before the first
    // price-sensitive mail come the routine mails in flight at the pause, one per slot, and, as measured, a
    // few more (150 against 137 at the pause with 10 slots: mails counted by the server after the pause was
    // read); the bound allows a second round of slots, far from the 3,000 of the routine send.
    expect(routineBefore).toBeLessThanOrEqual(routineAtPause + 2 * IN_FLIGHT);
    expect(order.slice(0, lastSensitive).filter(isRoutine).length).toBeLessThanOrEqual(
      routineAtPause + 2 * IN_FLIGHT,
    );
    expect(lastSensitive).toBeLessThan(order.length - 1);
    // Nothing lost, nothing twice.
    expect(new Set(sink.mails.filter((m) => isRoutine(m.subject)).flatMap((m) => m.to)).size).toBe(
      ROUTINE_SUBSCRIBERS,
    );
  });

  it("takes a new price-sensitive send's first mails out while an earlier one's batches still wait in the topic", async () => {
    const largeStock = await stockWithSubscribers('PSL', LARGE_SENSITIVE_SUBSCRIBERS);
    const smallStock = await stockWithSubscribers('PSS', SENSITIVE_SUBSCRIBERS);
    const large = announcement(largeStock.id, {
      headline: 'Large price-sensitive send',
      priceSensitive: true,
    });
    const small = announcement(smallStock.id, {
      headline: 'Later price-sensitive send',
      priceSensitive: true,
    });
    const isLarge = (subject: string) => subject.endsWith(large.headline);
    const isSmall = (subject: string) => subject.endsWith(small.headline);

    await events.sendRequested(largeStock.id, large);
    await sink.waitFor(
      (mails) => mails.filter((m) => isLarge(m.subject)).length >= 100,
      'the large price-sensitive send under way',
      300_000,
    );
    await expanded(large.sendGuid);
    // The server stops answering: the sender's priority lane fills up to CLAIM_AHEAD and pauses its topic,
    // where the rest of the large send's batches wait (first come, first served).
    sink.pause();
    const largeAtPause = sink.mails.filter((m) => isLarge(m.subject)).length;
    const queuedBefore = await queuedClaims('priority');

    // A later price-sensitive send is expanded by the sender, which admits its first batch at once: claimed
    // and in the lane beside the large send's claims, not behind its batches in the paused topic.
    await events.sendRequested(smallStock.id, small);
    await waitUntil(
      "the later send's deliveries claimed and queued in the sender's priority lane",
      async () =>
        (await deliveriesOf(small.sendGuid, 'sending')) === SENSITIVE_SUBSCRIBERS &&
        (await queuedClaims('priority')) - queuedBefore >= SENSITIVE_SUBSCRIBERS,
      120_000,
      100,
    );
    // The large send's batches were still waiting in the topic, unclaimed, while the later send was admitted.
    expect(await deliveriesOf(large.sendGuid, 'queued')).toBeGreaterThan(0);

    sink.resume();
    await sink.waitFor(
      (mails) => mails.filter((m) => isLarge(m.subject)).length === LARGE_SENSITIVE_SUBSCRIBERS,
      'the large send finished',
      480_000,
    );
    const order = sink.mails.map((m) => m.subject).filter((s) => isLarge(s) || isSmall(s));
    const lastSmall = order.length - 1 - [...order].reverse().findIndex(isSmall);
    const largeBefore = order.slice(0, lastSmall).filter(isLarge).length;
    console.log(
      `later price-sensitive send: ${largeAtPause} mails of the large one at the pause, ${largeBefore} before ` +
        `the later one's last mail, of ${LARGE_SENSITIVE_SUBSCRIBERS}`,
    );
    expect(order.filter(isSmall)).toHaveLength(SENSITIVE_SUBSCRIBERS);
    // The two sends take turns in the lane: after the large send's mails in flight at the pause (a round of
    // slots, two as in the test above), one of the large send's for each of the later send's.
    expect(largeBefore).toBeLessThanOrEqual(largeAtPause + 2 * IN_FLIGHT + SENSITIVE_SUBSCRIBERS);
    expect(new Set(sink.mails.filter((m) => isLarge(m.subject)).flatMap((m) => m.to)).size).toBe(
      LARGE_SENSITIVE_SUBSCRIBERS,
    );
  });
});
