import { SmtpError } from '../mail/mailer';
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
  const smtp: Array<{ resolve(answer: { messageId: string }): void; reject(err: Error): void }> = [];
  const deliveries = {
    claim: jest.fn(async (ids: string[]) => ids.map(delivery)),
    markSent: jest.fn(async () => undefined),
    // The first retry's write is lost with the database; later ones are written.
    retryLater: jest.fn(async () => {
      if (deliveries.retryLater.mock.calls.length === 1) throw new Error('connection terminated');
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
    send: jest.fn(
      () =>
        new Promise<{ messageId: string }>((resolve, reject) => {
          smtp.push({ resolve, reject });
        }),
    ),
  };
  const sends = { message: async () => ({ kind: 'mail', content: { subject: 's', text: 't', html: 'h' } }) };
  const reporting = new ReportDeliveries(
    deliveries as never,
    sends as never,
    { run: (work: (m: unknown) => unknown) => work({}) } as never,
    {} as never,
  );
  // The claim owner's lock: number 7, held until a test loses it.
  const owner = { held: true as boolean };
  const service = new DeliverBatch(
    { current: async () => 7, holds: (n: number) => owner.held && n === 7 } as never,
    deliveries as never,
    sends as never,
    reporting,
    mailer as never,
    {} as never,
    { forDelivery: (id: string) => `bounces+${id}@irportal.example` } as never,
    { fromRefusal: async () => undefined } as never,
    {
      INSTANCE_ID: 'sender-a',
      SEND_CONCURRENCY: 10,
      DELIVERY_LEASE_MS: 60_000,
      DELIVERY_MAX_ATTEMPTS: 3,
      DELIVERY_RETRY_BASE_MS: 1000,
    } as never,
  );
  return { service, deliveries, released, smtp, lostAnswer, owner, mailer };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
};

describe('DeliverBatch giving back claims', () => {
  it('gives back a claim whose outcome was not written, and never one it is sending again meanwhile', async () => {
    const { service, deliveries, released, smtp, lostAnswer } = senderWith();

    // A batch is admitted (claimed) and its mail refused for now, but the retry's write fails (the database
    // away): the claim is this process's to give back, a second later. The batch message was done with at its
    // claim.
    expect(await service.admit('send-1', ['d1'])).toBe(1);
    await until(() => smtp.length === 1);
    smtp[0].reject(new SmtpError('421 try again later', false));

    // The give-back queues d1 again, but its answer is slow to come; meanwhile the sweep's new batch message
    // claims d1 (queued now) and sends it.
    await until(() => released.length === 1);
    await service.admit('send-1', ['d1']);
    await until(() => smtp.length === 2);
    expect(deliveries.claim).toHaveBeenCalledTimes(2);

    // The answer is lost: d1 is among the claims to give back again, and the timer tries a second later while
    // the second claim still sends it. It must not be given back: a second sender would take and send it too.
    const tries = jest.spyOn(service as unknown as { releaseUnmarked(): Promise<void> }, 'releaseUnmarked');
    lostAnswer.resolve();
    // Until the timer's next try has run (the event, not a guess at how long a busy machine takes to fire it).
    await until(() => tries.mock.calls.length === 1);
    await tries.mock.results[0].value;
    expect(released).toEqual([['d1']]);

    smtp[1].resolve({ messageId: 'm2' });
    await until(() => service.backlog.inFlight === 0);
    expect(deliveries.markSent).toHaveBeenCalledTimes(1);
    // Settled: the old claim is given back now (a no-op in the database for a row marked sent).
    await service.admit('send-1', []);
    expect(released).toEqual([['d1'], ['d1']]);
  });
});

describe('DeliverBatch and its claim owner', () => {
  it('holds the slot of a mail whose mark is not written yet and never gives its claim back', async () => {
    const { service, deliveries, released, smtp } = senderWith();
    // The database is away for the first two statements of marks: they are written again, not given up.
    deliveries.markSent.mockImplementationOnce(async () => {
      throw new Error('connection terminated');
    });
    deliveries.markSent.mockImplementationOnce(async () => {
      throw new Error('connection terminated');
    });
    await service.admit('send-1', ['d1']);
    await until(() => smtp.length === 1);
    smtp[0].resolve({ messageId: 'm1' });
    await until(() => deliveries.markSent.mock.calls.length === 2);
    expect(service.backlog.inFlight).toBe(1);
    await until(() => service.backlog.inFlight === 0);
    expect(deliveries.markSent).toHaveBeenCalledTimes(3);
    expect((deliveries.markSent.mock.calls.at(-1) as unknown[])[0]).toEqual([
      expect.objectContaining({ id: 'd1', messageId: 'm1' }),
    ]);
    expect(released).toEqual([]);
  });

  it('sends no waiting claim made under an owner number whose lock was lost', async () => {
    const { service, deliveries, released, smtp, owner, mailer } = senderWith();
    const ids = Array.from({ length: 15 }, (_, i) => `d${i}`);
    // Ten in flight (SEND_CONCURRENCY), five waiting in the lane.
    await service.admit('send-1', ids);
    await until(() => smtp.length === 10);
    // The lock connection dies (the database restarted): the takeover queues owner 7's claims again for a
    // sender, so the five waiting here must not go out from here as well.
    owner.held = false;
    for (const answer of smtp) answer.resolve({ messageId: 'm' });
    await until(() => service.backlog.inFlight === 0);
    expect(mailer.send).toHaveBeenCalledTimes(10);
    expect(service.backlog).toEqual({ priority: 0, routine: 0, inFlight: 0 });
    // Not given back either: the rows are the takeover's (owner-checked), and the mails in flight were marked.
    expect(released).toEqual([]);
    expect(deliveries.markSent.mock.calls.flat(2)).toHaveLength(10);
  });
});

describe('DeliverBatch lanes', () => {
  it("starts a price-sensitive send's claims before a routine send's queued ones, and pauses a full lane's topic", async () => {
    const { service, deliveries, smtp } = senderWith();
    const routine = Array.from({ length: 1200 }, (_, i) => `r${i}`);
    deliveries.claim.mockImplementation(async (ids: string[]) =>
      ids.map((id) => ({ ...delivery(id), priceSensitive: id.startsWith('p') })),
    );
    deliveries.markSent.mockImplementation(async () => undefined);
    const valve = { pause: jest.fn(), resume: jest.fn() };
    // A routine send of 1,200: 10 in flight, the rest waiting in its lane, which is over CLAIM_AHEAD: paused.
    await service.admit('send-1', routine, valve);
    await until(() => smtp.length === 10);
    expect(valve.pause).toHaveBeenCalledTimes(1);
    expect(service.backlog).toEqual({ priority: 0, routine: 1190, inFlight: 10 });

    // A price-sensitive send arrives: the next free slots take its deliveries, not the 1,190 waiting.
    await service.admit('send-1', ['p1', 'p2']);
    const sentTo = () => mailerTo(smtp.length);
    smtp[0].resolve({ messageId: 'm0' });
    smtp[1].resolve({ messageId: 'm1' });
    await until(() => smtp.length === 12);
    expect(sentTo().slice(10)).toEqual(['p1@example.com', 'p2@example.com']);
    smtp[2].resolve({ messageId: 'm2' });
    await until(() => smtp.length === 13);
    expect(sentTo()[12]).toBe('r10@example.com');

    // Once the routine lane is down to its resume mark, its topic is taken again.
    let answered = 3;
    while (service.backlog.routine > 500) {
      const started = smtp.length;
      for (; answered < started; answered++) smtp[answered].resolve({ messageId: `m${answered}` });
      await until(() => smtp.length > started);
    }
    expect(valve.resume).toHaveBeenCalledTimes(1);
    expect(valve.pause).toHaveBeenCalledTimes(1);

    function mailerTo(n: number): string[] {
      return (service as unknown as { mailer: { send: jest.Mock } }).mailer.send.mock.calls
        .slice(0, n)
        .map((call: unknown[]) => call[0] as string);
    }
  });
});
