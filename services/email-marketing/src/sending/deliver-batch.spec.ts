import { DeliverBatch } from './deliver-batch';
import { ReportDeliveries } from './report-deliveries';
import type { ClaimedDelivery, UnmarkedClaim } from './deliveries.repository';

/** A promise settled from outside: the test decides when the SMTP server answers. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const delivery = (id: string): ClaimedDelivery =>
  ({ id, sendId: 'send-1', email: `${id}@example.com`, attempts: 1, kind: 'mail' }) as ClaimedDelivery;

/**
 * The sender's give-back of unmarked claims against an in-memory record of what it asks the database (the
 * claims' SQL is exercised by senders-scale.int-spec on PostgreSQL; here, which claims it gives back, when).
 */
function senderWith() {
  const released: string[][] = [];
  // The first give-back's answer is lost: it is written (the rows are queued again), then throws, when the
  // test opens the gate.
  const lostAnswer = deferred<void>();
  const smtp: Array<ReturnType<typeof deferred<{ messageId: string }>>> = [];
  const deliveries = {
    claim: jest.fn(async (ids: string[]) => ids.map(delivery)),
    // The first marks are lost with the database; later ones are written.
    markSent: jest.fn(async () => {
      if (deliveries.markSent.mock.calls.length === 1) throw new Error('connection terminated');
    }),
    release: jest.fn(async (claims: readonly UnmarkedClaim[]) => {
      released.push(claims.map((c) => c.id));
      if (released.length === 1) {
        await lostAnswer.promise;
        throw new Error('connection terminated');
      }
    }),
    takeUnreported: jest.fn(async () => []),
  };
  const mailer = {
    send: jest.fn(() => {
      const answer = deferred<{ messageId: string }>();
      smtp.push(answer);
      return answer.promise;
    }),
  };
  const sends = { message: async () => ({ kind: 'mail', content: { subject: 's', text: 't', html: 'h' } }) };
  const reporting = new ReportDeliveries(
    deliveries as never,
    sends as never,
    { run: (work: (m: unknown) => unknown) => work({}) } as never,
    {} as never,
  );
  const service = new DeliverBatch(
    { current: async () => 7 } as never,
    deliveries as never,
    sends as never,
    reporting,
    mailer as never,
    {} as never,
    {
      INSTANCE_ID: 'sender-a',
      SEND_CONCURRENCY: 10,
      DELIVERY_LEASE_MS: 60_000,
      DELIVERY_MAX_ATTEMPTS: 3,
      DELIVERY_RETRY_BASE_MS: 1000,
    } as never,
  );
  return { service, deliveries, released, smtp, lostAnswer };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
};

describe('DeliverBatch giving back claims', () => {
  it('gives back a claim whose mark failed, and never one it is sending again meanwhile', async () => {
    const { service, deliveries, released, smtp, lostAnswer } = senderWith();

    // A batch: the mail is accepted, its mark fails (the database away): the claim is this process's to give
    // back, a second later.
    const first = service.run('send-1', ['d1']);
    await until(() => smtp.length === 1);
    smtp[0].resolve({ messageId: 'm1' });
    await expect(first).rejects.toThrow('connection terminated');

    // The give-back queues d1 again, but its answer is slow to come; meanwhile Kafka's retry of the batch
    // claims d1 (queued now) and sends it.
    await until(() => released.length === 1);
    const retry = service.run('send-1', ['d1']);
    await until(() => smtp.length === 2);
    expect(deliveries.claim).toHaveBeenCalledTimes(2);

    // The answer is lost: d1 is among the claims to give back again, and the timer tries a second later while
    // the retry still sends it. It must not be given back: a second sender would take and send it too.
    const tries = jest.spyOn(service as unknown as { releaseUnmarked(): Promise<void> }, 'releaseUnmarked');
    lostAnswer.resolve();
    // Until the timer's next try has run (the event, not a guess at how long a busy machine takes to fire it).
    await until(() => tries.mock.calls.length === 1);
    await tries.mock.results[0].value;
    expect(released).toEqual([['d1']]);

    smtp[1].resolve({ messageId: 'm2' });
    await retry;
    expect(deliveries.markSent).toHaveBeenCalledTimes(2);
    // Settled: the old claim is given back now (a no-op in the database for a row marked sent).
    await service.run('send-1', []);
    expect(released).toEqual([['d1'], ['d1']]);
  });
});
