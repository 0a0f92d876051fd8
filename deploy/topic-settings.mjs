// deploy/topics.json read and checked: every topic's partitions, retention and cleanup policy. One file for
// every place that makes topics: deploy/local/topics.mjs (the local broker, compose, the Kubernetes topics
// Job) and deploy/k8s-kafka.mjs (Strimzi KafkaTopics). The names are proto's: the file must list exactly the
// catalogue's topics, so a topic added to a contract fails here until it has its settings.
// Dependency-free (the gateway image runs it beside deploy/local/ for the topics Job).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOPICS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'topics.json');

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^([1-9]\d*)(ms|s|m|h|d)$/;
const CLEANUP_POLICIES = ['delete', 'compact', 'compact,delete'];
const FIELDS = ['partitions', 'retention', 'cleanup'];

/**
 * The longest a topic carrying a password or a token may keep it. The broker deletes a segment past its
 * retention on its next check (log.retention.check.interval.ms, 5 minutes by default), so minutes, not days.
 */
export const SECRET_RETENTION_MAX_MS = 15 * UNIT_MS.m;
/**
 * A string field with one of these in its name carries a secret: a password (sealed on the bus since issue
 * 34, still kept short), a token, or a token's hash (the users service's key to a session: with write access
 * to the bus, a refresh hash read there rotates the session to tokens of the reader's choosing), or a second
 * factor's secret or code (sealed, kept short too).
 */
const SECRET_FIELD = /password|token|hash|^secret$|^code$/i;

/** `5m` -> 300000; undefined when the text is no duration. */
export function durationMs(text) {
  const m = DURATION.exec(String(text));
  return m ? Number(m[1]) * UNIT_MS[m[2]] : undefined;
}

/** deploy/topics.json's entries: topic name -> { partitions, retention, cleanup }. */
export function readTopicsFile(file = TOPICS_FILE) {
  return JSON.parse(fs.readFileSync(file, 'utf8')).topics;
}

/** A topic's Kafka configuration (names and string values, as the admin API and Strimzi take them). */
export const kafkaConfigOf = (entry) => ({
  'retention.ms': String(durationMs(entry.retention)),
  'cleanup.policy': entry.cleanup,
});

const isZod = (value) => typeof value?._def === 'object';

/** The schema under optional, nullable, default and effects wrappers. */
function unwrapped(schema) {
  let s = schema;
  while (s?._def?.innerType || s?._def?.schema) s = s._def.innerType ?? s._def.schema;
  return s;
}

/** Whether a zod schema (or any schema inside it) has a string field named like a password or a token. */
export function carriesSecret(schema, seen = new Set()) {
  if (!isZod(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (schema._def.typeName === 'ZodObject')
    return Object.entries(schema.shape).some(
      ([key, field]) =>
        (SECRET_FIELD.test(key) && unwrapped(field)?._def.typeName === 'ZodString') ||
        carriesSecret(field, seen),
    );
  if (schema._def.typeName === 'ZodLazy') return carriesSecret(schema._def.getter(), seen);
  return Object.values(schema._def)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .some((v) => isZod(v) && carriesSecret(v, seen));
}

/**
 * The topics that carry a secret: each request topic whose request or reply schema has one, with its
 * `.dlq` (the DLQ keeps a refused message whole) and its service's reply topic (proto's replyTopic:
 * `<service>.reply`, which carries every reply of that service).
 */
export function secretTopics(requestCatalogue) {
  const topics = Object.entries(requestCatalogue)
    .filter(([, spec]) => carriesSecret(spec.request) || carriesSecret(spec.reply))
    .flatMap(([topic, spec]) => [topic, `${spec.service}.reply`, `${topic}.dlq`]);
  return [...new Set(topics)];
}

function entryProblems(name, entry) {
  const problems = [];
  const say = (what) => problems.push(`${name}: ${what}`);
  for (const key of Object.keys(entry)) if (!FIELDS.includes(key)) say(`unknown field ${key}`);
  if (!Number.isInteger(entry.partitions) || entry.partitions < 1)
    say(`partitions ${JSON.stringify(entry.partitions)} is not a whole number of at least 1`);
  if (durationMs(entry.retention) === undefined)
    say(`retention ${JSON.stringify(entry.retention)} is not a duration (e.g. 5m, 1h, 7d)`);
  if (!CLEANUP_POLICIES.includes(entry.cleanup))
    say(`cleanup ${JSON.stringify(entry.cleanup)} is not one of ${CLEANUP_POLICIES.join(', ')}`);
  return problems;
}

/**
 * What is wrong with the topics file for this catalogue: `names`, every topic proto plans (allTopics), and
 * `requestCatalogue`, to find the topics that carry secrets. Sentences; none when the file is right.
 */
export function topicFileProblems(entries, { names, requestCatalogue }) {
  const problems = [];
  const planned = new Set(names);
  for (const name of names)
    if (!entries[name])
      problems.push(
        `${name}: proto has it, deploy/topics.json does not (add "${name}": { "partitions": …, "retention": …, "cleanup": "delete" })`,
      );
  for (const name of Object.keys(entries))
    if (!planned.has(name))
      problems.push(`${name}: in deploy/topics.json, not in proto's catalogue (remove it)`);
  for (const [name, entry] of Object.entries(entries)) problems.push(...entryProblems(name, entry));
  for (const name of secretTopics(requestCatalogue)) {
    const ms = durationMs(entries[name]?.retention);
    if (ms !== undefined && ms > SECRET_RETENTION_MAX_MS)
      problems.push(
        `${name}: carries a password or token, kept ${entries[name].retention} (at most ${SECRET_RETENTION_MAX_MS / UNIT_MS.m}m)`,
      );
  }
  return problems;
}

/**
 * The topics to create, in proto's order: { name, partitions, config } each. Throws, naming every problem,
 * when the file does not fit the catalogue.
 */
export function plannedTopics({ names, requestCatalogue }, entries = readTopicsFile()) {
  const problems = topicFileProblems(entries, { names, requestCatalogue });
  if (problems.length) throw new Error(`deploy/topics.json:\n  ${problems.join('\n  ')}`);
  return names.map((name) => ({
    name,
    partitions: entries[name].partitions,
    config: kafkaConfigOf(entries[name]),
  }));
}
