import { KAFKAJS_VERSION } from './kafka-idle-fix';
import { KAFKAJS_VERSIONS_REJOIN_FIXED, KafkaConsumerGroup } from './kafka-rejoin-fix';

const logger = {
  namespace: () => logger,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** kafkajs' private join and sync steps of a consumer group (symbols on its prototype). */
const privateStep = (name: string) =>
  Object.getOwnPropertySymbols(KafkaConsumerGroup.prototype).find((s) => s.description === name)!;
const JOIN = privateStep('private:ConsumerGroup:join');
const SYNC = privateStep('private:ConsumerGroup:sync');

let assigned = 0;

/**
 * A consumer group of `cluster` whose join records the member id it is sent and, like a coordinator, answers
 * with it, or with a new one for a stranger ('') or an id it has `forgotten` (kafkajs' retry after
 * UNKNOWN_MEMBER_ID comes to the same: a join as a stranger).
 */
function group(cluster: object, sent: string[], forgotten: string[] = []) {
  const g = new KafkaConsumerGroup({
    cluster,
    groupId: 'g',
    topics: [],
    topicConfigurations: {},
    logger,
    instrumentationEmitter: { emit: () => undefined },
    assigners: [],
    retry: { retries: 0 },
  }) as unknown as Record<symbol, () => Promise<void>> & {
    memberId: string | null;
    coordinator: { leaveGroup: () => Promise<void> };
    joinAndSync(): Promise<void>;
    leave(): Promise<void>;
  };
  g[JOIN] = async () => {
    sent.push(g.memberId || ''); // what kafkajs' JoinGroup request carries
    if (!g.memberId || forgotten.includes(g.memberId)) g.memberId = `member-${++assigned}`;
  };
  g[SYNC] = async () => undefined;
  g.coordinator = { leaveGroup: async () => undefined };
  return g;
}

describe('kafkajs consumer group rejoin (kafka-rejoin-fix.ts)', () => {
  it('is the kafkajs version the fix was written against', () => {
    expect(KAFKAJS_VERSIONS_REJOIN_FIXED).toContain(KAFKAJS_VERSION);
  });

  it('a consumer started again after a crash rejoins as the member it was', async () => {
    const cluster = {};
    const sent: string[] = [];
    const first = group(cluster, sent);
    await first.joinAndSync();
    // The crash: no leave (the broker is away), a new ConsumerGroup of the same consumer.
    const again = group(cluster, sent);
    await again.joinAndSync();
    expect(sent).toEqual(['', first.memberId]);
    expect(again.memberId).toBe(first.memberId);
  });

  it('joins afresh after a clean leave, in another consumer, and once its coordinator forgot the member', async () => {
    const cluster = {};
    const sent: string[] = [];
    const first = group(cluster, sent);
    await first.joinAndSync();
    await first.leave();
    await group(cluster, sent).joinAndSync();
    expect(sent).toEqual(['', '']);

    const other: string[] = [];
    await group({}, other).joinAndSync();
    expect(other).toEqual(['']);

    const known = group(cluster, []);
    const id = (await known.joinAndSync(), known.memberId!);
    const forgetting = group(cluster, [], [id]);
    await forgetting.joinAndSync();
    expect(forgetting.memberId).not.toBe(id);
    // The new id is the one the next start offers.
    const later: string[] = [];
    await group(cluster, later).joinAndSync();
    expect(later).toEqual([forgetting.memberId]);
  });

  it('a group that joined once rejoins a rebalance as kafkajs does (no stale id offered again)', async () => {
    const cluster = {};
    const sent: string[] = [];
    const g = group(cluster, sent);
    await g.joinAndSync();
    // kafkajs' answer to UNKNOWN_MEMBER_ID while fetching: forget the id, join again.
    g.memberId = null;
    await g.joinAndSync();
    expect(sent).toEqual(['', '']);
  });
});
