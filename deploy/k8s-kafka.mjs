// The Strimzi component of deploy/k8s/ (components/strimzi/, used by the prod overlay), as data for
// deploy/k8s.mjs to write: a KafkaTopic per topic of deploy/topics.json (the same settings the topics Job
// and the local broker get) and a KafkaUser per process with SCRAM-SHA-512 credentials and ACLs for exactly
// what its code reads and writes (deploy/kafka-access.mjs).
//
// Credentials: a KafkaUser takes its password from the Secret its pods already read (`irportal-<name>`, key
// KAFKA_SASL_PASSWORD) rather than generating one, so the Deployments, the topics Job and KEDA's
// TriggerAuthentications keep one Secret each. Kafka's user name is the KafkaUser's name, so that Secret's
// KAFKA_SASL_USERNAME must be `<name>`. The User Operator also writes a Secret named `<name>` (password,
// sasl.jaas.config): nothing here reads it.

import { plannedTopics } from './topic-settings.mjs';
import { gatewayAccess, servicesAccess } from './kafka-access.mjs';

/** The Strimzi API the vendored CRDs serve (deploy/crds/README.md): Strimzi 1.x serves v1 only. */
export const STRIMZI_API = 'kafka.strimzi.io/v1';
const CLUSTER_LABEL = 'strimzi.io/cluster';

/** What the topics Job does (deploy/local/topics.mjs): create topics, add partitions, set their configuration. */
const TOPIC_ADMIN = ['Create', 'Describe', 'Alter', 'DescribeConfigs', 'AlterConfigs'];

const labelsOf = (cluster, name) => ({
  [CLUSTER_LABEL]: cluster,
  ...(name ? { 'app.kubernetes.io/name': name } : {}),
  'app.kubernetes.io/part-of': 'irportal',
});

function kafkaTopic({ name, partitions, config }, { cluster, replicas }) {
  return {
    apiVersion: STRIMZI_API,
    kind: 'KafkaTopic',
    metadata: { name, labels: labelsOf(cluster) },
    spec: { partitions, replicas, config },
  };
}

const topicAcl = (name, operations) => ({
  resource: { type: 'topic', name, patternType: 'literal' },
  operations,
});
const groupAcl = (name, patternType = 'literal') => ({
  resource: { type: 'group', name, patternType },
  operations: ['Read'],
});

/** One ACL per topic, in name order: Read and Describe where it reads, Write and Describe where it writes. */
function topicAcls({ reads, writes }) {
  return [...new Set([...reads, ...writes])]
    .sort()
    .map((topic) =>
      topicAcl(topic, [
        ...(reads.has(topic) ? ['Read'] : []),
        ...(writes.has(topic) ? ['Write'] : []),
        'Describe',
      ]),
    );
}

function kafkaUser(name, acls, { cluster, secretOf }) {
  return {
    apiVersion: STRIMZI_API,
    kind: 'KafkaUser',
    metadata: { name, labels: labelsOf(cluster, name) },
    spec: {
      authentication: {
        type: 'scram-sha-512',
        password: { valueFrom: { secretKeyRef: { name: secretOf(name), key: 'KAFKA_SASL_PASSWORD' } } },
      },
      authorization: { type: 'simple', acls },
    },
  };
}

const usesRequester = (access) => [...access.reads].some((t) => t.endsWith('.reply'));

/**
 * components/strimzi/'s files (name -> entries of { comment?, object }) for these manifest services.
 * `settings`: cluster (the Strimzi Kafka's name), replicas (of each topic), secretOf (a process's Secret),
 * consumerGroupsOf (the platform's rule: every consumer group of a manifest service), root (the repository, whose code says who reads and writes what).
 */
export function strimziFiles(services, proto, settings) {
  const { consumerGroupsOf, root } = settings;
  const plan = plannedTopics({
    names: proto.allTopics().map((t) => t.name),
    requestCatalogue: proto.RequestCatalogue,
  });
  const topics = plan.map((t) => ({ object: kafkaTopic(t, settings) }));
  topics[0].comment =
    ' Every topic of deploy/topics.json (partitions, retention.ms, cleanup.policy), created and kept so by\n' +
    " Strimzi's Topic Operator (it must watch this namespace).";

  const access = servicesAccess(root, services, proto);
  const users = services.map((s) => {
    const own = access.get(s.name);
    const groups = [
      ...consumerGroupsOf(s).map((group) => groupAcl(group)),
      // A ProjectionBootstrap's requester: client `<service>-<what>`, reply group `<service>-<what>-client`.
      ...(usesRequester(own) ? [groupAcl(`${s.name}-`, 'prefix')] : []),
    ];
    return {
      comment: ` ${s.name}: reads ${own.reads.size} topics and writes ${own.writes.size} (its code, deploy/kafka-access.mjs); its roles' consumer groups.`,
      object: kafkaUser(s.name, [...topicAcls(own), ...groups], settings),
    };
  });
  users.push(
    {
      comment: ' gateway: the client of every request topic; its reply group is gateway-client.',
      object: kafkaUser(
        'gateway',
        [...topicAcls(gatewayAccess(proto)), groupAcl('gateway-client')],
        settings,
      ),
    },
    {
      comment: ' topics: the topics Job creates every topic, adds partitions and sets their configuration.',
      object: kafkaUser('topics', [topicAcl('*', TOPIC_ADMIN)], settings),
    },
  );
  return { 'topics.yaml': topics, 'users.yaml': users };
}
