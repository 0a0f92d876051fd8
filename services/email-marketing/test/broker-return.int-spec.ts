import { consumerGroupOf } from '@irp/platform';
import { AppError } from '@irp/platform';
import { ErrorCode, Topics } from '@irp/proto';
import {
  createTestRequester,
  dropSchema,
  loadTestEnv,
  ownLocalBroker,
  patientDeadline,
  readCounter,
  ServiceProcess,
  startBroker,
  startServiceProcess,
  stopBroker,
  waitUntil,
} from '@irp/platform/testing';
import type { KafkaRequester } from '@irp/platform';
import { Client } from 'pg';
import { itWhen } from '../../../scripts/testing/skip-conditions';
import { EventSender, stockEvent, ticker } from './email-fixtures';

// Generous: each wait ends when its condition holds (no test has a time budget: speed is bench/'s business,
// bench/recovery.bench.mjs times the return).
jest.setTimeout(600_000);

/**
 * A service outlives a broker outage longer than its Kafka retries: its consumers crash and start again
 * while the broker is away, and once it is back the service answers a request and consumes an event again,
 * with no restart of its own. A real process (services/email-marketing/dist: build first) and this lane's
 * own broker, killed (`kill -9`) and started again.
 */
const GROUP = consumerGroupOf('email-marketing', 'api');

let broker = ownLocalBroker();

describe('a broker outage', () => {
  let service: ServiceProcess;
  let requester: KafkaRequester;
  let events: EventSender;
  let db: Client;

  const crashes = () => readCounter(service.healthUrl, 'irp_kafka_consumer_crashes_total', { group: GROUP });
  const companyOf = async (id: string) =>
    (
      await db.query<{ company_name: string }>(
        `SELECT company_name FROM email_marketing.stocks WHERE id = $1`,
        [id],
      )
    ).rows[0]?.company_name;

  beforeAll(async () => {
    await dropSchema('email_marketing');
    db = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await db.connect();
    // The api role: the stock projection (an event consumer) and the requests (ping among them).
    service = await startServiceProcess('email-marketing', {
      roles: ['api'],
      env: { INSTANCE_ID: 'outage', LOG_LEVEL: 'warn' },
    });
    requester = await createTestRequester([Topics.EmailMarketingPing], 5000, { patient: false });
    events = await EventSender.connect();
  });

  afterAll(async () => {
    // A failure while the broker was stopped must not leave the lane's next files without one.
    if (broker && !ownLocalBroker()) broker = await startBroker(broker);
    await service?.stop();
    await requester?.close();
    await events?.close();
    await db?.end();
  });

  itWhen('ownBroker', broker !== null)(
    'answers a request and consumes an event again once the broker is back',
    async () => {
      const stock = stockEvent({ ticker: ticker('BRK'), companyName: 'Before the outage' });
      await events.stock(stock);
      await waitUntil('the stock projected', async () => (await companyOf(stock.id)) === 'Before the outage');
      expect((await requester.request(Topics.EmailMarketingPing, {})).service).toBe('email-marketing');

      await stopBroker(broker!, 'SIGKILL');
      const crashesBefore = await crashes();
      // Down until the service's consumer has crashed twice (its retries ran out, it started again and ran
      // out again): what kept services deaf for up to kafkajs' 30 s restart wait after the broker returned.
      await waitUntil(
        'the consumer crashed twice',
        async () => (await crashes()) >= crashesBefore + 2,
        120_000,
        200,
      );

      broker = await startBroker(broker!);
      const back = Date.now();
      // Asked again every 2 s until one is answered: a request is answered at most once, and one asked while
      // the groups rejoin may go unanswered (the gateway's caller gets a 503 and asks again).
      const answered = (async () => {
        let unanswered = 0;
        for (;;) {
          try {
            const reply = await requester.request(Topics.EmailMarketingPing, {}, 2000);
            return { reply, ms: Date.now() - back, unanswered };
          } catch (err) {
            if (!(err instanceof AppError) || err.code !== ErrorCode.ServiceUnavailable) throw err;
            if (Date.now() > patientDeadline(120_000)) throw err;
            unanswered++;
          }
        }
      })();
      await events.stock({ ...stock, companyName: 'After the outage', updatedAt: new Date().toISOString() });
      await waitUntil(
        'the event after the outage projected',
        async () => (await companyOf(stock.id)) === 'After the outage',
        120_000,
        50,
      );
      const consumedMs = Date.now() - back;
      const { reply, ms, unanswered } = await answered;
      expect(reply.service).toBe('email-marketing');
      // The service itself never restarted: the same process answered.
      expect(reply.instance).toBe('outage');
      console.log(
        `broker back (answering): request answered after ${ms} ms (${unanswered} asked before went unanswered), ` +
          `event consumed after ${consumedMs} ms; ` +
          `${(await crashes()) - crashesBefore} consumer crash(es) of ${GROUP} during the outage`,
      );
    },
  );
});
