/**
 * kafkajs 2.2.4 rejoins a crashed consumer's group as a stranger: after a crash (the broker away longer than
 * the retries) it disconnects, which cannot leave the group while the broker is away, and starts again with a
 * new `ConsumerGroup` and no member id. The coordinator then holds the rebalance until the old member, which
 * will never come back, has missed its session (KAFKA_SESSION_TIMEOUT_MS, 10 s), and the whole group, every
 * instance of the role, consumes nothing meanwhile. Measured after a `kill -9` of the broker: a requester's
 * reply group sat in PreparingRebalance beside its dead member for 5.3 s after the broker answered again.
 *
 * This module lets a consumer that starts again rejoin as the member it was: the first join of a new
 * `ConsumerGroup` of the same consumer (kafkajs makes one cluster object per consumer) and group sends the
 * member id of the last join. A coordinator that still knows it takes the member back at once; one that has
 * expired it answers UNKNOWN_MEMBER_ID, on which kafkajs joins afresh by itself. A member that left cleanly
 * (`leave()` answered) is forgotten. Loaded by ./kafka.ts, for every client of the process.
 */
// kafkajs has no exports map: its consumer group is reachable by path, and its version is pinned below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as ConsumerGroupClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('kafkajs/package.json') as { version: string };

interface ConsumerGroupLike {
  cluster: object;
  groupId: string;
  memberId: string | null;
  joinAndSync(): Promise<void>;
  leave(): Promise<void>;
}

type ConsumerGroupClass = { prototype: ConsumerGroupLike } & (new (options: object) => ConsumerGroupLike);

/**
 * The kafkajs versions whose consumer group this fix was written against (a new one is read again: the unit
 * test compares it with the installed version).
 */
export const KAFKAJS_VERSIONS_REJOIN_FIXED = ['2.2.4'];

/** The member id of each consumer's (cluster's) last join, by group. */
const lastMemberIds = new WeakMap<object, Map<string, string>>();
/** Consumer groups that have joined once: only a new one (a restart) rejoins with the last member id. */
const joinedOnce = new WeakSet<ConsumerGroupLike>();

const originalJoinAndSync = ConsumerGroup.prototype.joinAndSync;
const originalLeave = ConsumerGroup.prototype.leave;

async function joinAndSync(this: ConsumerGroupLike): Promise<void> {
  if (!joinedOnce.has(this) && this.memberId === null)
    this.memberId = lastMemberIds.get(this.cluster)?.get(this.groupId) ?? null;
  await originalJoinAndSync.call(this);
  joinedOnce.add(this);
  if (this.memberId) {
    const byGroup = lastMemberIds.get(this.cluster) ?? new Map<string, string>();
    byGroup.set(this.groupId, this.memberId);
    lastMemberIds.set(this.cluster, byGroup);
  }
}

async function leave(this: ConsumerGroupLike): Promise<void> {
  await originalLeave.call(this);
  // Left for good (the coordinator answered): the next start joins as a new member.
  lastMemberIds.get(this.cluster)?.delete(this.groupId);
}

/** kafkajs' consumer group, with the fix when the version matches (for the unit test). */
export const KafkaConsumerGroup = ConsumerGroup;

if (KAFKAJS_VERSIONS_REJOIN_FIXED.includes(version)) {
  ConsumerGroup.prototype.joinAndSync = joinAndSync;
  ConsumerGroup.prototype.leave = leave;
}
