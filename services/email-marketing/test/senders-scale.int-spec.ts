import {
  dropSchema,
  loadTestEnv,
  readCounter,
  ServiceProcess,
  SmtpSink,
  startServiceProcess,
  startSmtpSink,
  waitUntil,
} from '@irp/platform/testing';
import { Client } from 'pg';
import { addConfirmedSubscribers, announcement, EventSender, stockEvent, ticker } from './email-fixtures';

// Generous: each wait ends when its condition holds; beside the other lanes on 2 cores the 10,000 mails have
// taken minutes (no test has a time budget: speed is bench/'s business).
jest.setTimeout(900_000);

const SUBSCRIBERS = 10_000;
/** Mails one sender has in flight at most (SEND_CONCURRENCY): the most a crash may duplicate. */
const IN_FLIGHT = 10;

/**
 * Sending at scale, as operations run it: sender processes in one consumer group against the real broker,
 * database and an SMTP server. Two senders split 10,000 deliveries with each subscriber mailed once; a
 * sender killed (SIGKILL) mid-send loses no mail and duplicates no more than its in-flight mails.
 */
describe('senders at scale', () => {
  let sink: SmtpSink;
  let events: EventSender;
  let db: Client;
  const processes: ServiceProcess[] = [];

  const env = () => ({
    SMTP_URL: sink.url,
    SEND_CONCURRENCY: String(IN_FLIGHT),
    SMTP_POOL_SIZE: '5',
    // Short, so the killed sender's claims come back within the test. A live sender claims a delivery only
    // when an SMTP slot is free for it, so its claims never wait out a lease in a queue (with claims made
    // ahead of the slots, a busy machine let the other sender take and send them again).
    DELIVERY_LEASE_MS: '4000',
    SWEEP_INTERVAL_MS: '1000',
    LOG_LEVEL: 'warn',
  });
  const start = async (instance: string, roles: string[]) => {
    const p = await startServiceProcess('email-marketing', {
      roles,
      env: { ...env(), INSTANCE_ID: instance },
    });
    processes.push(p);
    return p;
  };
  const count = async (sql: string, params: unknown[]) =>
    (await db.query<{ n: number }>(sql, params)).rows[0].n;

  /** A stock with SUBSCRIBERS confirmed subscribers, known to the service. */
  async function stockWithSubscribers(prefix: string) {
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
      Array.from({ length: SUBSCRIBERS }, (_, i) => `${prefix.toLowerCase()}${i}@scale.example`),
    );
    return stock;
  }

  /** The send's deliveries by status (and, for `sending`, by the instance holding the claim). */
  const deliveries = async (sendGuid: string, where: string, params: unknown[] = []) =>
    (
      await db.query<{ email: string }>(
        `SELECT d.email FROM email_marketing.deliveries d JOIN email_marketing.sends s ON s.id = d.send_id
         WHERE s.send_guid = $1 AND ${where}`,
        [sendGuid, ...params],
      )
    ).rows.map((r) => r.email);
  /**
   * The positive signal that a send is over at the SMTP server: every delivery is marked `sent` and none is
   * claimed (`queued`/`sending`). A sender marks a delivery only after the server accepted it (the sink keeps
   * a mail before it answers 250), and no sender holds a claim on any of them, so no SMTP session for this
   * send is still coming: counting the sink's mails from here on is final.
   */
  const untilAllSent = (sendGuid: string, ms: number) =>
    waitUntil(
      `every delivery of ${sendGuid} sent and none claimed`,
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM email_marketing.deliveries d JOIN email_marketing.sends s ON s.id = d.send_id
           WHERE s.send_guid = $1 AND d.status = 'sent'`,
          [sendGuid],
        )) === SUBSCRIBERS && (await deliveries(sendGuid, `d.status IN ('queued', 'sending')`)).length === 0,
      ms,
      200,
    );
  /** Mails the senders themselves counted as accepted (their email_mails_accepted_total). */
  const acceptedBy = (p: ServiceProcess) =>
    readCounter(p.healthUrl, 'email_mails_accepted_total', { kind: 'announcement' });

  /** Per address, how many mails the SMTP server accepted for this announcement. */
  const received = (headline: string) => {
    const perAddress = new Map<string, number>();
    for (const mail of sink.mails) {
      if (!mail.subject.endsWith(headline)) continue;
      for (const to of mail.to) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    }
    return perAddress;
  };

  beforeAll(async () => {
    await dropSchema('email_marketing');
    // Envelope and Subject only: parsing 20,000 bodies in this process would slow the senders it measures.
    sink = await startSmtpSink({ parse: 'headers' });
    events = await EventSender.connect();
    db = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await db.connect();
    // One process with the api role keeps the projection and migrates; two senders share the work.
    await start('a', ['api', 'sender']);
    await start('b', ['sender']);
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
    await events?.close();
    await db?.end();
    await sink?.close();
  });

  it('two senders split 10,000 deliveries; each subscriber is mailed once', async () => {
    const stock = await stockWithSubscribers('SPL');
    const a = announcement(stock.id, { headline: 'Split ten thousand' });
    const acceptedBefore = (await acceptedBy(processes[0])) + (await acceptedBy(processes[1]));
    const started = Date.now();
    await events.sendRequested(stock.id, a);
    await sink.waitFor(() => received(a.headline).size === SUBSCRIBERS, 'every subscriber mailed', 480_000);
    const seconds = (Date.now() - started) / 1000;
    await untilAllSent(a.sendGuid, 60_000);
    const perAddress = received(a.headline);
    expect(perAddress.size).toBe(SUBSCRIBERS);
    expect([...perAddress.values()].filter((n) => n !== 1)).toEqual([]);
    // The senders' own count agrees: 10,000 acceptances between them, none twice.
    expect((await acceptedBy(processes[0])) + (await acceptedBy(processes[1])) - acceptedBefore).toBe(
      SUBSCRIBERS,
    );
    const bySender = await db.query<{ claimed_by: string; n: number }>(
      `SELECT d.claimed_by, count(*)::int AS n FROM email_marketing.deliveries d
       JOIN email_marketing.sends s ON s.id = d.send_id WHERE s.send_guid = $1 AND d.status = 'sent'
       GROUP BY 1 ORDER BY 1`,
      [a.sendGuid],
    );
    expect(bySender.rows.map((r) => r.claimed_by)).toEqual(['a', 'b']);
    expect(bySender.rows.reduce((sum, r) => sum + r.n, 0)).toBe(SUBSCRIBERS);
    // Every accepted address reaches the announcement's sendHistory (reported through the outbox).
    await waitUntil(
      'all deliveries reported',
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM email_marketing.deliveries d JOIN email_marketing.sends s ON s.id = d.send_id
           WHERE s.send_guid = $1 AND d.reported`,
          [a.sendGuid],
        )) === SUBSCRIBERS,
      30_000,
    );
    console.log(
      `10,000 deliveries by two senders in ${seconds.toFixed(1)} s: ${bySender.rows.map((r) => `${r.claimed_by} ${r.n}`).join(', ')}`,
    );
  });

  it('a sender killed mid-send loses no mail and duplicates no more than its in-flight mails', async () => {
    sink.clear();
    const stock = await stockWithSubscribers('KIL');
    const a = announcement(stock.id, { headline: 'Kill mid send' });
    await events.sendRequested(stock.id, a);
    const victim = processes[1]; // sender b; a carries on
    const claimedByVictim = () => deliveries(a.sendGuid, `d.status = 'sending' AND d.claimed_by = $2`, ['b']);
    await sink.waitFor(() => received(a.headline).size >= 2000, '2,000 mails before the kill', 300_000);
    // Kill it while it holds claims it has not marked yet: read from Postgres just before the SIGKILL …
    let beforeKill: string[] = [];
    await waitUntil(
      'the victim holding claimed, unmarked deliveries',
      async () => (beforeKill = await claimedByVictim()).length > 0,
      60_000,
      5,
    );
    await victim.kill('SIGKILL');
    // … and what the dead process left behind: claims nobody marked, which only a lease expiry frees.
    const orphaned = await claimedByVictim();
    expect(orphaned.length).toBeGreaterThan(0);
    const mailedAtKill = received(a.headline);

    await untilAllSent(a.sendGuid, 480_000);
    const perAddress = received(a.headline);
    const mails = [...perAddress.values()].reduce((sum, n) => sum + n, 0);
    // 0 lost: every subscriber mailed, every delivery sent.
    expect(perAddress.size).toBe(SUBSCRIBERS);
    // Duplicates only where the victim's claims were left unmarked, and at most its in-flight mails.
    const twice = [...perAddress].filter(([, n]) => n > 1).map(([to]) => to);
    expect(twice.filter((to) => !orphaned.includes(to))).toEqual([]);
    expect(mails - SUBSCRIBERS).toBeLessThanOrEqual(IN_FLIGHT);
    console.log(
      `killed sender: ${beforeKill.length} claimed and unmarked just before the SIGKILL, ${orphaned.length} left by it ` +
        `(${orphaned.filter((to) => mailedAtKill.has(to)).length} of them already at the SMTP server); ` +
        `${mails - SUBSCRIBERS} duplicate(s) of ${SUBSCRIBERS}; ${sink.connectionErrors.length} connection(s) dropped at the SMTP server`,
    );
  });
});
