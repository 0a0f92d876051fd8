// The checks k8s-validation.test.mjs runs over every object an overlay of deploy/k8s/ renders to, offline:
// each object against its Kubernetes (kubernetes-models) or KEDA (@kubernetes-models/keda) schema or a CRD
// vendored in deploy/crds/ (Strimzi, the Prometheus operator: crd-schemas.mjs), and the project's policies
// over the whole set. Each returns its problems as sentences (none: the objects pass), so
// a test can also show that a broken object is refused, and why.
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { crdSchemas } from './crd-schemas.mjs';

/**
 * The kinds deploy/k8s/ may hold, by `apiVersion kind`, besides the vendored CRDs': any other is a problem
 * until it is added here or its CRD to deploy/crds/.
 */
const MODELS = new Map(
  [
    Namespace,
    PersistentVolumeClaim,
    Service,
    Deployment,
    Job,
    HorizontalPodAutoscaler,
    PodDisruptionBudget,
    NetworkPolicy,
    Ingress,
    ScaledObject,
    TriggerAuthentication,
  ].map((Model) => {
    const { apiVersion, kind } = new Model();
    return [`${apiVersion} ${kind}`, Model];
  }),
);

const CRDS = crdSchemas();

const nameOf = (o) => `${o.kind} ${o.metadata?.name}`;

/** Each object against the schema of its apiVersion and kind. */
export function schemaProblems(objects) {
  const problems = [];
  for (const object of objects) {
    const Model = MODELS.get(`${object.apiVersion} ${object.kind}`);
    if (!Model && CRDS.knows(object)) {
      problems.push(...CRDS.problems(object).map((p) => `${nameOf(object)}: ${p}`));
      continue;
    }
    if (!Model) {
      problems.push(`${nameOf(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(structuredClone(object)).validate();
    } catch (err) {
      problems.push(`${nameOf(object)}: ${err.message}`);
    }
  }
  return problems;
}

// ---- policies ---------------------------------------------------------------------------------------------

const PROBES = ['startupProbe', 'livenessProbe', 'readinessProbe'];
/** Volume types the restricted Pod Security Standard allows. */
const RESTRICTED_VOLUMES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];
/** Variables whose value is a secret: only ever by reference (envFrom, secretKeyRef). */
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|API_KEY|DATABASE_URL|SMTP_URL|SASL/;

const envOf = (container) => new Map((container.env ?? []).map((e) => [e.name, e]));
const envValue = (container, name) => envOf(container).get(name)?.value;

/** Pods of Deployments and Jobs: { owner, spec } */
function podsOf(objects) {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => ({ owner: o, spec: o.spec.template.spec, labels: o.spec.template.metadata?.labels ?? {} }));
}

/** The port a probe reaches, by name or number. */
function probePort(probe) {
  return (probe.httpGet ?? probe.tcpSocket ?? probe.grpc)?.port;
}

function declares(container, port) {
  return (container.ports ?? []).some((p) => p.name === port || p.containerPort === port);
}

/** Every container has startup, liveness and readiness probes, each on a port the container declares. */
function probeProblems(deployment) {
  const problems = [];
  for (const c of deployment.spec.template.spec.containers) {
    for (const kind of PROBES) {
      const probe = c[kind];
      if (!probe) problems.push(`${nameOf(deployment)}: container ${c.name} has no ${kind}`);
      else if (!declares(c, probePort(probe)))
        problems.push(
          `${nameOf(deployment)}: ${c.name}'s ${kind} is on port ${probePort(probe)}, which the container does not declare`,
        );
    }
  }
  return problems;
}

function resourceProblems({ owner, spec }) {
  const problems = [];
  for (const c of spec.containers)
    for (const bound of ['requests', 'limits'])
      for (const resource of ['cpu', 'memory'])
        if (!c.resources?.[bound]?.[resource])
          problems.push(`${nameOf(owner)}: container ${c.name} has no ${resource} ${bound}`);
  return problems;
}

/**
 * The Pod Security Standards restricted profile (a container's settings over the pod's), plus a read-only
 * root filesystem with every mount a process writes to an emptyDir.
 */
function securityProblems({ owner, spec }) {
  const problems = [];
  const say = (what) => problems.push(`${nameOf(owner)}: ${what}`);
  for (const host of ['hostNetwork', 'hostPID', 'hostIPC']) if (spec[host]) say(`${host} is set`);
  for (const v of spec.volumes ?? []) {
    const type = Object.keys(v).find((k) => k !== 'name');
    if (!RESTRICTED_VOLUMES.includes(type)) say(`volume ${v.name} is ${type}, not allowed by restricted`);
  }
  const pod = spec.securityContext ?? {};
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const own = c.securityContext ?? {};
    const effective = (field) => (own[field] !== undefined ? own[field] : pod[field]);
    const at = `container ${c.name}`;
    if (effective('runAsNonRoot') !== true) say(`${at}: runAsNonRoot is not true`);
    const uid = effective('runAsUser');
    if (uid === undefined || uid === 0)
      say(`${at}: runAsUser is ${uid ?? 'unset'} (a non-root uid is needed)`);
    if (own.allowPrivilegeEscalation !== false) say(`${at}: allowPrivilegeEscalation is not false`);
    if (!own.capabilities?.drop?.includes('ALL')) say(`${at}: capabilities do not drop ALL`);
    const added = (own.capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length) say(`${at}: adds capabilities ${added.join(', ')}`);
    const seccomp = effective('seccompProfile')?.type;
    if (!['RuntimeDefault', 'Localhost'].includes(seccomp))
      say(`${at}: seccompProfile is ${seccomp ?? 'unset'}`);
    if (own.privileged) say(`${at}: privileged`);
    if ((c.ports ?? []).some((p) => p.hostPort)) say(`${at}: a hostPort`);
    if (own.readOnlyRootFilesystem !== true) say(`${at}: the root filesystem is writable`);
    const tmp = volumeAt(spec, c, '/tmp');
    if (!tmp?.emptyDir) say(`${at}: /tmp is written to but no emptyDir is mounted there`);
    const dataDir = envValue(c, 'DATA_DIR');
    if (dataDir && !volumeAt(spec, c, dataDir)?.persistentVolumeClaim)
      say(`${at}: DATA_DIR ${dataDir} is not on a PersistentVolumeClaim (the service's roles share it)`);
  }
  return problems;
}

/** The volume a container mounts at `dir`. */
const volumeAt = (spec, container, dir) => {
  const mount = (container.volumeMounts ?? []).find((m) => m.mountPath === dir);
  return mount && (spec.volumes ?? []).find((v) => v.name === mount.name);
};

/**
 * DATA_DIR: every pod of a service that writes one mounts the same claim (a file a poller stores is served by
 * an api pod), which exists, and which several pods may mount from different nodes (ReadWriteMany) where the
 * service runs more than one pod on a cluster of several nodes (`multiNode`: every overlay but dev).
 */
function storageProblems(objects, { multiNode }) {
  const problems = [];
  const claims = new Map(
    objects.filter((o) => o.kind === 'PersistentVolumeClaim').map((c) => [c.metadata.name, c]),
  );
  const byService = new Map();
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const spec = d.spec.template.spec;
    const c = spec.containers[0];
    const dataDir = envValue(c, 'DATA_DIR');
    if (!dataDir) continue;
    const claim = volumeAt(spec, c, dataDir)?.persistentVolumeClaim?.claimName;
    if (!claim) continue; // securityProblems names it
    const service = d.metadata.labels['app.kubernetes.io/name'];
    byService.set(service, [...(byService.get(service) ?? []), { deployment: d, claim }]);
  }
  for (const [service, mounts] of byService) {
    const names = [...new Set(mounts.map((m) => m.claim))].sort();
    if (names.length > 1)
      problems.push(`${service}: its pods mount DATA_DIR from different claims (${names.join(', ')})`);
    for (const name of names) {
      const claim = claims.get(name);
      if (!claim) problems.push(`${service}: DATA_DIR's claim ${name} is no PersistentVolumeClaim here`);
      else if (multiNode && !claim.spec.accessModes?.includes('ReadWriteMany'))
        problems.push(
          `${nameOf(claim)}: ${claim.spec.accessModes?.join(', ')}, but ${mounts.length} Deployments of ${service} mount it from any node (ReadWriteMany)`,
        );
    }
  }
  return problems;
}

function secretProblems(objects) {
  const problems = objects
    .filter((o) => o.kind === 'Secret')
    .map((o) => `${nameOf(o)}: a Secret in the repository`);
  for (const { owner, spec } of podsOf(objects))
    for (const c of spec.containers)
      for (const e of c.env ?? [])
        if (SECRET_NAME.test(e.name) && e.value !== undefined)
          problems.push(`${nameOf(owner)}: ${e.name} has a value in the repository (use a Secret)`);
  return problems;
}

const matches = (selector, labels) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

/**
 * Replicas of each Deployment: the least its autoscaler (HPA or ScaledObject) keeps, else spec.replicas
 * (default 1); and the most it may reach.
 */
export function replicaRange(objects) {
  const range = new Map();
  for (const d of objects.filter((o) => o.kind === 'Deployment'))
    range.set(d.metadata.name, { min: d.spec.replicas ?? 1, max: d.spec.replicas ?? 1, by: 'replicas' });
  for (const h of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler'))
    range.set(h.spec.scaleTargetRef.name, {
      min: h.spec.minReplicas ?? 1,
      max: h.spec.maxReplicas,
      by: 'HPA',
    });
  for (const s of objects.filter((o) => o.kind === 'ScaledObject'))
    range.set(s.spec.scaleTargetRef.name, {
      min: s.spec.minReplicaCount ?? 0,
      max: s.spec.maxReplicaCount ?? 100,
      by: 'KEDA',
    });
  return range;
}

function availabilityProblems(objects, { services }) {
  const problems = [];
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  const range = replicaRange(objects);
  const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
  const spreadRoles = new Set(['gateway', ...services.map((s) => `${s.name}-api`)]);
  for (const d of deployments) {
    const name = d.metadata.name;
    const labels = d.spec.template.metadata.labels;
    if (range.get(name).min > 1 && !budgets.some((b) => matches(b.spec.selector, labels)))
      problems.push(`${nameOf(d)}: ${range.get(name).min} replicas and no PodDisruptionBudget`);
    if (spreadRoles.has(name) && !d.spec.template.spec.topologySpreadConstraints?.length)
      problems.push(`${nameOf(d)}: no topologySpreadConstraints`);
  }
  return problems;
}

/**
 * Every role of every manifest service is a Deployment `<service>-<role>` running that role alone, and the
 * gateway is one.
 */
function roleProblems(objects, { services }) {
  const problems = [];
  const byName = new Map(objects.filter((o) => o.kind === 'Deployment').map((d) => [d.metadata.name, d]));
  if (!byName.has('gateway')) problems.push('no gateway Deployment');
  for (const s of services)
    for (const role of s.roles) {
      const d = byName.get(`${s.name}-${role}`);
      if (!d) problems.push(`${s.name}: role ${role} has no Deployment ${s.name}-${role}`);
      else if (envValue(d.spec.template.spec.containers[0], 'ROLES') !== role)
        problems.push(`${nameOf(d)}: ROLES is not ${role}`);
    }
  return problems;
}

/**
 * The parameters KEDA's kafka scaler reads, and the values its enums take: `kafkaMetadata`'s `keda:"name=..."`
 * tags in kedacore/keda pkg/scalers/kafka_scaler.go (commit 8b4f083, 2026-08-20). A key it does not know is
 * ignored by KEDA without a word (a typo would scale on defaults), so the policy refuses it.
 */
export const KEDA_KAFKA = {
  metadata: new Set([
    'bootstrapServers',
    'consumerGroup',
    'topic',
    'partitionLimitation',
    'lagThreshold',
    'activationLagThreshold',
    'offsetResetPolicy',
    'allowIdleConsumers',
    'excludePersistentLag',
    'scaleToZeroOnInvalidOffset',
    'limitToPartitionsWithLag',
    'ensureEvenDistributionOfPartitions',
    'fullMetadata',
    'version',
    'tls',
    'unsafeSsl',
    'sasl',
    'saslTokenProvider',
    'awsRegion',
  ]),
  authParams: new Set([
    'tls',
    'ca',
    'cert',
    'key',
    'keyPassword',
    'sasl',
    'username',
    'password',
    'saslTokenProvider',
    'scopes',
    'oauthTokenEndpointUri',
    'oauthExtensions',
    'keytab',
    'realm',
    'kerberosConfig',
    'kerberosServiceName',
    'kerberosDisableFAST',
  ]),
  enums: {
    tls: ['enable', 'disable'],
    sasl: ['none', 'plaintext', 'scram_sha256', 'scram_sha512', 'oauthbearer', 'gssapi'],
    offsetResetPolicy: ['latest', 'earliest'],
  },
};

/**
 * KEDA: each ScaledObject scales an existing Deployment on Kafka lag of the role's own consumer group (as the
 * platform names it), at the broker the pods use, with quoted thresholds, credentials by reference, at least
 * one replica, and at most as many replicas as its topics have partitions (more would sit idle).
 */
function kedaProblems(objects, { services, topicGroupOf, partitionsOf }) {
  const problems = [];
  const deployments = new Map(
    objects.filter((o) => o.kind === 'Deployment').map((d) => [d.metadata.name, d]),
  );
  const auths = new Map(
    objects.filter((o) => o.kind === 'TriggerAuthentication').map((a) => [a.metadata.name, a]),
  );
  for (const so of objects.filter((o) => o.kind === 'ScaledObject')) {
    const say = (what) => problems.push(`${nameOf(so)}: ${what}`);
    const target = deployments.get(so.spec.scaleTargetRef.name);
    if (!target) {
      say(`scales ${so.spec.scaleTargetRef.name}, which is no Deployment here`);
      continue;
    }
    const container = target.spec.template.spec.containers[0];
    const service = target.metadata.labels['app.kubernetes.io/name'];
    const role = target.metadata.labels['app.kubernetes.io/component'];
    if (!(so.spec.minReplicaCount >= 1)) say(`minReplicaCount ${so.spec.minReplicaCount} (at least 1)`);
    if (!so.spec.triggers?.length) say('no triggers');
    for (const t of so.spec.triggers ?? []) {
      const m = t.metadata ?? {};
      const at = `trigger ${t.name ?? m.topic}`;
      if (t.type !== 'kafka') say(`${at}: type ${t.type}, not kafka`);
      for (const key of ['lagThreshold', 'activationLagThreshold'])
        if (typeof m[key] !== 'string' || !/^\d+$/.test(m[key]))
          say(`${at}: ${key} is not a quoted whole number`);
      if (!m.offsetResetPolicy) say(`${at}: no offsetResetPolicy`);
      for (const [key, value] of Object.entries(m)) {
        if (!KEDA_KAFKA.metadata.has(key)) say(`${at}: KEDA's kafka scaler has no parameter ${key}`);
        else if (KEDA_KAFKA.enums[key] && !KEDA_KAFKA.enums[key].includes(value))
          say(`${at}: ${key} ${value} (KEDA takes ${KEDA_KAFKA.enums[key].join(', ')})`);
      }
      const entry = services.find((s) => s.name === service) ?? { name: service, roles: [role] };
      const group = topicGroupOf(entry, role, m.topic);
      if (m.consumerGroup !== group)
        say(
          `${at}: consumerGroup ${m.consumerGroup}, but ${service}'s ${role} consumes ${m.topic} as ${group}`,
        );
      if (m.bootstrapServers !== envValue(container, 'KAFKA_BROKERS'))
        say(`${at}: bootstrapServers ${m.bootstrapServers} is not the pods' KAFKA_BROKERS`);
      const partitions = partitionsOf(m.topic);
      if (partitions === undefined) say(`${at}: topic ${m.topic} is not in the catalogue`);
      else if (so.spec.maxReplicaCount > partitions)
        say(
          `${at}: maxReplicaCount ${so.spec.maxReplicaCount} exceeds ${m.topic}'s ${partitions} partitions`,
        );
      const auth = auths.get(t.authenticationRef?.name);
      if (!auth) say(`${at}: no TriggerAuthentication ${t.authenticationRef?.name}`);
      else {
        const parameters = (auth.spec.secretTargetRef ?? []).map((r) => r.parameter);
        for (const p of parameters)
          if (!KEDA_KAFKA.authParams.has(p))
            say(`${at}: its TriggerAuthentication sets ${p}, which KEDA's kafka scaler does not read`);
        for (const p of ['username', 'password'])
          if (!parameters.includes(p)) say(`${at}: its TriggerAuthentication has no ${p} from a Secret`);
      }
    }
  }
  return problems;
}

/**
 * CPU autoscaling for every api role and the gateway, within what the topics allow: an api role consumes
 * request topics (`requestPartitions`: the fewest any has), and each gateway instance needs a partition of
 * every reply topic (`replyPartitions`: the fewest any has).
 */
function hpaProblems(objects, { services, requestPartitions, replyPartitions }) {
  const problems = [];
  const hpas = new Map(
    objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((h) => [h.spec.scaleTargetRef.name, h]),
  );
  for (const name of ['gateway', ...services.map((s) => `${s.name}-api`)]) {
    const hpa = hpas.get(name);
    if (!hpa) {
      problems.push(`Deployment ${name}: no HorizontalPodAutoscaler`);
      continue;
    }
    const cpu = hpa.spec.metrics?.find((m) => m.type === 'Resource' && m.resource.name === 'cpu');
    if (!cpu) problems.push(`${nameOf(hpa)}: does not scale on CPU`);
    const bound = name === 'gateway' ? replyPartitions : requestPartitions;
    if (hpa.spec.maxReplicas > bound)
      problems.push(
        `${nameOf(hpa)}: maxReplicas ${hpa.spec.maxReplicas} exceeds the ${bound} partitions it consumes`,
      );
  }
  return problems;
}

/** The ports /metrics answers on (a service's HEALTH_PORT, the gateway's OPS_PORT), by name. */
const METRICS_PORTS = ['health', 'ops'];

/** Ingress a scraper needs: from other namespaces' pods (never addresses), to the metrics ports only. */
const scrapeOnly = (policy) =>
  policy.spec.ingress.every(
    (rule) =>
      rule.from?.length &&
      rule.from.every((peer) => peer.namespaceSelector && !peer.ipBlock) &&
      rule.ports?.length &&
      rule.ports.every((port) => METRICS_PORTS.includes(port.port)),
  );

/**
 * Whether a policy admits ingress only to a role's own listeners (services/manifest.json `listeners`, e.g.
 * the bounce listener's SMTP): it selects that role's pods and every rule names only those ports.
 */
const listenerOnly = (p, services) => {
  const labels = p.spec.podSelector.matchLabels ?? {};
  const listeners = services
    .find((s) => s.name === labels['app.kubernetes.io/name'])
    ?.listeners?.filter((l) => l.role === labels['app.kubernetes.io/component'])
    .map((l) => l.name);
  return (
    !!listeners?.length &&
    p.spec.ingress.every(
      (rule) => rule.ports?.length && rule.ports.every((port) => listeners.includes(port.port)),
    )
  );
};

/**
 * NetworkPolicies: everything denied by default, ingress only to the gateway (a scraper's to the metrics
 * ports, and the internet's to a role's own listener), and every pod allowed DNS and Kafka out (the database
 * Job, which never speaks to Kafka: DNS and PostgreSQL).
 */
function networkProblems(objects, { services }) {
  const problems = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const denyAll = policies.find(
    (p) =>
      Object.keys(p.spec.podSelector).length === 0 &&
      ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) &&
      !p.spec.ingress &&
      !p.spec.egress,
  );
  if (!denyAll) problems.push('no default-deny NetworkPolicy (ingress and egress)');
  for (const p of policies.filter((p) => p.spec.ingress?.length))
    if (
      p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] !== 'gateway' &&
      !scrapeOnly(p) &&
      !listenerOnly(p, services)
    )
      problems.push(`${nameOf(p)}: admits ingress to pods other than the gateway`);
  for (const { owner, labels } of podsOf(objects)) {
    const egress = policies
      .filter((p) => p.spec.policyTypes?.includes('Egress') && matches(p.spec.podSelector, labels))
      .flatMap((p) => p.spec.egress ?? []);
    const ports = new Set(egress.flatMap((rule) => (rule.ports ?? []).map((port) => port.port)));
    const needs =
      owner.kind === 'Job' && owner.metadata.name === 'database'
        ? [
            ['DNS', 53],
            ['PostgreSQL', 5432],
          ]
        : [
            ['DNS', 53],
            ['Kafka', 9092],
          ];
    for (const [what, port] of needs)
      if (!ports.has(port)) problems.push(`${nameOf(owner)}: no egress to ${what} (port ${port})`);
  }
  return problems;
}

const CLUSTER_LABEL = 'strimzi.io/cluster';
/** The Strimzi cluster a bootstrap address names (`<cluster>-kafka-bootstrap.<namespace>...`). */
const clusterOf = (bootstrap) => /^([a-z0-9-]+)-kafka-bootstrap\./.exec(bootstrap ?? '')?.[1];

/** A KafkaUser's ACL operations on a resource (literal name, or a prefix of it). */
function allowed(user, type, name) {
  return (user.spec.authorization?.acls ?? [])
    .filter(({ resource: r, type: allow }) => (allow ?? 'allow') === 'allow' && r.type === type)
    .filter(({ resource: r }) =>
      r.patternType === 'prefix' ? name.startsWith(r.name) : r.name === name || r.name === '*',
    )
    .flatMap((acl) => acl.operations);
}

/**
 * Strimzi: every KafkaTopic and KafkaUser belongs to the cluster the pods' KAFKA_BROKERS names; the
 * KafkaTopics are exactly the planned topics with their planned partitions and configuration; every process
 * has a KafkaUser of its name whose password is the one its pods read (a Secret of its envFrom); and KEDA,
 * which reads a ScaledObject's lag with its service's credentials, may read its group and topics.
 */
function strimziProblems(objects, { topics }) {
  const problems = [];
  const pods = podsOf(objects);
  const cluster = clusterOf(envValue(pods[0]?.spec.containers[0] ?? {}, 'KAFKA_BROKERS'));
  const users = new Map(objects.filter((o) => o.kind === 'KafkaUser').map((u) => [u.metadata.name, u]));
  for (const o of objects.filter((o) => o.apiVersion?.startsWith('kafka.strimzi.io/')))
    if (o.metadata.labels?.[CLUSTER_LABEL] !== cluster)
      problems.push(
        `${nameOf(o)}: label ${CLUSTER_LABEL} is ${o.metadata.labels?.[CLUSTER_LABEL] ?? 'missing'}, not ${cluster} (KAFKA_BROKERS)`,
      );
  const kafkaTopics = new Map(
    objects.filter((o) => o.kind === 'KafkaTopic').map((t) => [t.spec.topicName ?? t.metadata.name, t]),
  );
  for (const t of topics) {
    const found = kafkaTopics.get(t.name);
    if (!found) problems.push(`topic ${t.name}: no KafkaTopic`);
    else if (
      found.spec.partitions !== t.partitions ||
      JSON.stringify(found.spec.config) !== JSON.stringify(t.config)
    )
      problems.push(`${nameOf(found)}: not deploy/topics.json's partitions and configuration`);
  }
  const planned = new Set(topics.map((t) => t.name));
  for (const name of kafkaTopics.keys())
    if (!planned.has(name)) problems.push(`KafkaTopic ${name}: not in deploy/topics.json`);
  // Every process that speaks to Kafka (KAFKA_BROKERS set) as its own KafkaUser; the database Job does not.
  const kafkaPods = pods.filter(({ spec }) => spec.containers.some((c) => envValue(c, 'KAFKA_BROKERS')));
  for (const { owner, spec, labels } of kafkaPods) {
    const name = labels['app.kubernetes.io/name'];
    const user = users.get(name);
    const ref = user?.spec.authentication?.password?.valueFrom?.secretKeyRef;
    const secrets = spec.containers.flatMap((c) => (c.envFrom ?? []).map((e) => e.secretRef?.name));
    if (!user) problems.push(`${nameOf(owner)}: no KafkaUser ${name}`);
    else if (!secrets.includes(ref?.name) || ref.key !== 'KAFKA_SASL_PASSWORD')
      problems.push(
        `${nameOf(owner)}: KafkaUser ${name}'s password is not KAFKA_SASL_PASSWORD of a Secret its pods read`,
      );
  }
  for (const so of objects.filter((o) => o.kind === 'ScaledObject')) {
    const service = so.metadata.labels?.['app.kubernetes.io/name'];
    const user = users.get(service);
    for (const { metadata: m } of so.spec.triggers ?? []) {
      const say = (what) => problems.push(`${nameOf(so)}: KafkaUser ${service} ${what}`);
      if (!user) continue;
      if (!allowed(user, 'group', m.consumerGroup).includes('Read'))
        say(`may not read group ${m.consumerGroup}`);
      if (!allowed(user, 'topic', m.topic).includes('Read')) say(`may not read topic ${m.topic}`);
    }
  }
  return problems;
}

/** Every policy over one overlay's objects. */
export function policyProblems(objects, context) {
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  const pods = podsOf(objects);
  return [
    ...roleProblems(objects, context),
    ...deployments.flatMap(probeProblems),
    ...pods.flatMap(resourceProblems),
    ...pods.flatMap(securityProblems),
    ...storageProblems(objects, context),
    ...secretProblems(objects),
    ...availabilityProblems(objects, context),
    ...networkProblems(objects, context),
    ...(context.autoscaled ? [...kedaProblems(objects, context), ...hpaProblems(objects, context)] : []),
    ...(context.strimzi ? strimziProblems(objects, context) : []),
  ];
}
