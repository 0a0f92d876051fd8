// Kafka topics: every topic of proto's catalogue (request, .reply, event, .dlq) created up front, since
// the brokers never auto-create one. KAFKA_PARTITIONS and GATEWAY_INSTANCES size them.

import fs from 'node:fs';
import path from 'node:path';
import { kafkaClient } from './kafka.mjs';
import { intEnv, ROOT, run, sleep } from './shared.mjs';

/** @irp/proto's catalogue, building proto first when its dist/ is missing (a fresh clone). */
async function loadProto() {
  const dist = path.join(ROOT, 'proto', 'dist', 'index.js');
  if (!fs.existsSync(dist)) {
    const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
    const r = await run(
      fs.existsSync(tsc) ? tsc : 'npx',
      fs.existsSync(tsc) ? ['-b', 'proto'] : ['tsc', '-b', 'proto'],
    );
    if (r.code !== 0 || !fs.existsSync(dist))
      throw new Error(`building proto (tsc -b proto) failed:\n${r.out}`);
  }
  const mod = await import('@irp/proto');
  const allTopics = mod.allTopics ?? mod.default?.allTopics;
  if (typeof allTopics !== 'function') throw new Error('@irp/proto does not export allTopics');
  return { allTopics };
}

/** The topic plan from the catalogue: KAFKA_PARTITIONS (default 3), GATEWAY_INSTANCES reply partitions (default 4). */
export async function topicPlan() {
  const { allTopics } = await loadProto();
  return allTopics({
    partitions: intEnv('KAFKA_PARTITIONS', 3),
    replyPartitions: intEnv('GATEWAY_INSTANCES', 4),
  });
}

/** Creates the missing topics with `replicationFactor` replicas each; returns their names. */
async function createMissing(admin, plan, existing, replicationFactor) {
  const missing = plan.filter((t) => !existing.has(t.name));
  if (missing.length === 0) return [];
  await admin.createTopics({
    topics: missing.map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor })),
    waitForLeaders: true,
    timeout: 30_000,
  });
  return missing.map((t) => t.name);
}

/** Grows existing topics that have fewer partitions than planned; returns `name old->new` lines. */
async function growPartitions(admin, plan, existing) {
  const present = plan.filter((t) => existing.has(t.name));
  if (present.length === 0) return [];
  const topics = await loadedMetadata(admin, present);
  const counts = new Map(topics.map((t) => [t.name, t.partitions.length]));
  const grow = present.filter((t) => (counts.get(t.name) ?? 0) < t.partitions);
  if (grow.length === 0) return [];
  await admin.createPartitions({
    topicPartitions: grow.map((t) => ({ topic: t.name, count: t.partitions })),
    timeout: 30_000,
  });
  return grow.map((t) => `${t.name} ${counts.get(t.name)}->${t.partitions}`);
}

/**
 * The planned topics' metadata. Right after a creation the broker may not yet list a new topic in its
 * metadata and answers UNKNOWN_TOPIC_OR_PARTITION ("This server does not host this topic-partition"); that
 * is "not ready yet", not a failure, so it reads as no topics and the caller looks again.
 */
async function metadataOf(admin, plan) {
  try {
    return (await admin.fetchTopicMetadata({ topics: plan.map((t) => t.name) })).topics;
  } catch (err) {
    if (err?.type === 'UNKNOWN_TOPIC_OR_PARTITION' || err?.retriable) return [];
    throw err;
  }
}

/**
 * The metadata of topics the broker lists, once it has them all: a broker restarted on its data lists its
 * topics before it has loaded their partitions, and answers "This server does not host this
 * topic-partition" meanwhile.
 */
async function loadedMetadata(admin, topics, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await metadataOf(admin, topics);
    if (found.length === topics.length) return found;
    if (Date.now() > deadline)
      throw new Error(
        `topic metadata not loaded within ${timeoutMs / 1000} s (${found.length} of ${topics.length})`,
      );
    await sleep(200);
  }
}

/** Waits for a leader on every planned partition (createPartitions does not wait by itself). */
async function waitForLeaders(admin, plan, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const topics = await metadataOf(admin, plan);
    const byName = new Map(topics.map((t) => [t.name, t]));
    const notReady = plan.filter((t) => {
      const md = byName.get(t.name);
      return !md || md.partitions.length < t.partitions || md.partitions.some((p) => p.leader < 0);
    });
    if (notReady.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`topics without leaders: ${notReady.map((t) => t.name).join(', ')}`);
    await sleep(200);
  }
}

/**
 * Creates every catalogue topic (replication factor 1, the local single broker's; a cluster's is
 * KAFKA_REPLICATION_FACTOR) and waits for their leaders. Idempotent: existing topics are left alone, except
 * that a topic with fewer partitions than planned gets more. `security`: the broker's SASL and TLS
 * (kafkaSecurityFromEnv). Returns { planned, created, expanded, unchanged } (topic names; planned is the
 * full plan).
 */
export async function createTopics(
  brokers,
  { security = {}, replicationFactor = intEnv('KAFKA_REPLICATION_FACTOR', 1) } = {},
) {
  const plan = await topicPlan();
  const admin = kafkaClient(brokers, { security }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const created = await createMissing(admin, plan, existing, replicationFactor);
    const expanded = await growPartitions(admin, plan, existing);
    await waitForLeaders(admin, plan);
    return {
      planned: plan,
      created,
      expanded,
      unchanged: plan.length - created.length - expanded.length,
    };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
