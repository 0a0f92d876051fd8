// Kafka topics: every topic of proto's catalogue (request, <service>.reply, event, .dlq) created up front, since
// the brokers never auto-create one, with the partitions, retention and cleanup policy deploy/topics.json
// gives each (deploy/topic-settings.mjs).

import fs from 'node:fs';
import path from 'node:path';
import kafkajs from 'kafkajs';
import { plannedTopics } from '../topic-settings.mjs';
import { kafkaClient } from './kafka.mjs';
import { intEnv, ROOT, run, sleep } from './shared.mjs';

const { ConfigResourceTypes } = kafkajs;

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
  const requestCatalogue = mod.RequestCatalogue ?? mod.default?.RequestCatalogue;
  if (typeof allTopics !== 'function') throw new Error('@irp/proto does not export allTopics');
  return { allTopics, requestCatalogue };
}

/**
 * Partitions on the local broker of `make up`, `make test` and the benches (`up`), instead of a cluster's
 * (deploy/topics.json, sized for the most replicas a role scales to): KAFKA_PARTITIONS (default 3) for request
 * and event topics, GATEWAY_INSTANCES (default 4) for `<service>.reply` topics, the file's for `.dlq` topics. One
 * machine runs a role's instances a bench or test asks for, and every partition costs the broker and every
 * idle consumer work on each fetch.
 */
export const localPartitions = () => ({
  topics: intEnv('KAFKA_PARTITIONS', 3),
  replies: intEnv('GATEWAY_INSTANCES', 4),
});

/**
 * The topic plan: the catalogue's topics, each with its settings from deploy/topics.json; `local`, with the
 * local broker's partition counts (localPartitions).
 */
export async function topicPlan({ local = false } = {}) {
  const { allTopics, requestCatalogue } = await loadProto();
  const plan = plannedTopics({ names: allTopics().map((t) => t.name), requestCatalogue });
  if (!local) return plan;
  const most = localPartitions();
  const partitionsOf = (t) =>
    t.name.endsWith('.dlq') ? t.partitions : t.name.endsWith('.reply') ? most.replies : most.topics;
  return plan.map((t) => ({ ...t, partitions: partitionsOf(t) }));
}

const configEntries = (config) => Object.entries(config).map(([name, value]) => ({ name, value }));

/** Creates the missing topics with `replicationFactor` replicas each; returns their names. */
async function createMissing(admin, plan, existing, replicationFactor) {
  const missing = plan.filter((t) => !existing.has(t.name));
  if (missing.length === 0) return [];
  try {
    await admin.createTopics({
      topics: missing.map((t) => ({
        topic: t.name,
        numPartitions: t.partitions,
        replicationFactor,
        configEntries: configEntries(t.config),
      })),
      waitForLeaders: true,
      timeout: 30_000,
    });
  } catch (err) {
    // Created, but kafkajs' own wait for leaders asked before the broker listed them ("This server does
    // not host this topic-partition", seen adding a topic to a running broker): waitForLeaders below waits.
    if (err?.type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw err;
  }
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
 * Sets the planned configuration (retention, cleanup policy) on existing topics whose own differs, as a
 * topic created before the file changed has; returns their names. AlterConfigs sets a topic's whole dynamic
 * configuration: the file's is all of it.
 */
async function alignConfigs(admin, plan, existing) {
  const present = plan.filter((t) => existing.has(t.name));
  if (present.length === 0) return [];
  const { resources } = await admin.describeConfigs({
    resources: present.map((t) => ({
      type: ConfigResourceTypes.TOPIC,
      name: t.name,
      configNames: Object.keys(t.config),
    })),
    includeSynonyms: false,
  });
  const current = new Map(
    resources.map((r) => [
      r.resourceName,
      Object.fromEntries(r.configEntries.map((e) => [e.configName, e.configValue])),
    ]),
  );
  const differ = present.filter((t) =>
    Object.entries(t.config).some(([name, value]) => current.get(t.name)?.[name] !== value),
  );
  if (differ.length === 0) return [];
  await admin.alterConfigs({
    validateOnly: false,
    resources: differ.map((t) => ({
      type: ConfigResourceTypes.TOPIC,
      name: t.name,
      configEntries: configEntries(t.config),
    })),
  });
  return differ.map((t) => t.name);
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
async function loadedMetadata(admin, topics, timeoutMs = 5 * 60_000) {
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
async function waitForLeaders(admin, plan, timeoutMs = 5 * 60_000) {
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
 * KAFKA_REPLICATION_FACTOR) with its planned configuration and waits for their leaders. Idempotent:
 * existing topics are left alone, except that a topic with fewer partitions than planned gets more and one
 * whose retention or cleanup policy differs from the plan gets the plan's. `security`: the broker's SASL
 * and TLS (kafkaSecurityFromEnv); `local`: the local broker's partition counts (localPartitions). Returns
 * { planned, created, expanded, configured, unchanged } (topic names; planned is the full plan).
 */
export async function createTopics(
  brokers,
  { security = {}, replicationFactor = intEnv('KAFKA_REPLICATION_FACTOR', 1), local = false } = {},
) {
  const plan = await topicPlan({ local });
  const admin = kafkaClient(brokers, { security }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const created = await createMissing(admin, plan, existing, replicationFactor);
    const expanded = await growPartitions(admin, plan, existing);
    const configured = await alignConfigs(admin, plan, existing);
    await waitForLeaders(admin, plan);
    const changed = new Set([...created, ...expanded.map((line) => line.split(' ')[0]), ...configured]);
    return { planned: plan, created, expanded, configured, unchanged: plan.length - changed.size };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
