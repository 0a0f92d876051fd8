#!/usr/bin/env node
// Writes the Kustomize tree deploy/k8s/ from services/manifest.json: a base, a component and two overlays,
// every object built below as plain data and written with the `yaml` package (then prettier), never from
// text templates. Committed and checked like docker-compose.yml: the infra suite runs `--check`, so a
// manifest (or generator) edited without regenerating fails `make test`.
//
//   base/                    per service: a Deployment per role (`<service>-<role>`, ROLES=<role>) and its
//                            Service (the health port); the gateway (Deployment, Services); the topics Job;
//                            the database Job (each service's PostgreSQL role and schema);
//                            NetworkPolicies (default deny, ingress to the gateway only, egress by need)
//   components/autoscaling/  HPAs on CPU (api roles, gateway), KEDA ScaledObjects on consumer-group lag
//                            (pollers, senders) with their TriggerAuthentications, PodDisruptionBudgets
//   components/monitoring/   ServiceMonitors, the PrometheusRule of the alerts, the scraper's NetworkPolicy
//                            (deploy/k8s-monitoring.mjs)
//   components/strimzi/      Strimzi KafkaTopics from deploy/topics.json and a KafkaUser (SCRAM, ACLs) per
//                            process (deploy/k8s-kafka.mjs)
//   overlays/dev/            namespace irportal-dev, NODE_ENV=development, one replica each, no autoscaling
//   overlays/prod/           namespace irportal, NODE_ENV=production, TRUST_PROXY=1 (the ingress hop), the
//                            autoscaling, monitoring and strimzi components, an Ingress with TLS
//
//   node deploy/k8s.mjs            write deploy/k8s/ (and remove files there it does not generate)
//   node deploy/k8s.mjs --check    exit 1 when a committed file differs, is missing or is extra
//   [--manifest FILE] [--out DIR]  other paths (the tests use them)
//
// Kafka and PostgreSQL run elsewhere; the pods take their secrets from Secrets created beforehand
// (docs/operations.md, "Deploying to Kubernetes"): none is written here.

import path from 'node:path';
import { createRequire } from 'node:module';
import prettier from 'prettier';
import YAML from 'yaml';
import { buildProto } from '../scripts/web-routes.mjs';
import { isMain, ROOT, treeGeneratorCli } from './generated.mjs';
import { monitoringParts } from './k8s-monitoring.mjs';
import { strimziFiles } from './k8s-kafka.mjs';
import { renderOverlay } from './k8s-overlay.mjs';
import { measuredResources } from './k8s-resources.mjs';
// The platform's naming of consumer groups (Node strips the types of this dependency-free module).
import { consumerGroupsOf, topicGroupOf } from '../services/platform/src/roles.ts';

const require = createRequire(import.meta.url);

export const K8S_DIR = path.join(ROOT, 'deploy', 'k8s');
const COMMAND = 'node deploy/k8s.mjs';

// ---- what a deployment of IR Portal is made of ------------------------------------------------------------

/** The Strimzi Kafka cluster (in namespace `kafka`) the KafkaTopics and KafkaUsers belong to. */
export const KAFKA_CLUSTER = 'irportal';
/** The Kafka bootstrap address (the cluster's bootstrap Service): pods and KEDA share it. */
export const KAFKA_BOOTSTRAP = `${KAFKA_CLUSTER}-kafka-bootstrap.kafka.svc:9092`;
/** Ports egress may reach, by what is there. Narrow the NetworkPolicies' `to` for your cluster. */
const PORTS = {
  dns: [
    { protocol: 'UDP', port: 53 },
    { protocol: 'TCP', port: 53 },
  ],
  kafka: [
    { protocol: 'TCP', port: 9092 },
    { protocol: 'TCP', port: 9093 },
  ],
  postgres: [{ protocol: 'TCP', port: 5432 }],
  smtp: [
    { protocol: 'TCP', port: 25 },
    { protocol: 'TCP', port: 465 },
    { protocol: 'TCP', port: 587 },
  ],
  https: [{ protocol: 'TCP', port: 443 }],
};
/** What each service reaches besides Kafka, PostgreSQL and DNS: its vendors (HTTPS) and mail (SMTP). */
const SERVICE_EGRESS = {
  stocks: ['https'], // the address autocomplete (PLACES_BASE_URL)
  announcements: ['https'], // the ASX feeds and announcement documents
  'email-marketing': ['smtp', 'https'], // SMTP_URL; the Mailchimp-type and Campaign-Monitor-type APIs
  invoicing: ['https'], // the accounting system
  reports: ['https'], // the market-data provider
};

/**
 * The most gateway instances: each owns a partition of every `<service>.reply` topic, so deploy/topics.json gives
 * those at least this many (a consumer role scales up to its topics' partitions; the infra suite checks).
 */
export const GATEWAY_INSTANCES = 6;
/** Replicas of each topic the Job creates: a three-broker cluster (dev's single broker: 1). */
const TOPIC_REPLICATION = { base: 3, dev: 1 };

/** api roles (and the gateway): a CPU HPA between these; api consumes its request topics. */
const API_REPLICAS = { min: 2, max: 4 };
const GATEWAY_REPLICAS = { min: 2, max: GATEWAY_INSTANCES };
const CPU_TARGET_PERCENT = 70;

/**
 * Roles scaled by KEDA on their consumer group's lag: per topic the role handles, the lag per replica KEDA
 * aims for (`lagThreshold`; keys are proto's Topics constants). Both are estimates: a poll request is one
 * stock's source call (seconds), an email.deliveries-queued message is a batch of 250 mails, the rest are
 * quick. The topics are the ones the role's handlers take (services/<service>/src/app.module.ts roles).
 */
const LAG_SCALED = {
  'announcements-poller': {
    maxReplicas: 6,
    lag: {
      AnnouncementsPollRequested: 5,
      InitialPollRequested: 2,
      AnnouncementDetected: 20,
      AnnouncementsMarketItemsListed: 5,
    },
  },
  'email-marketing-sender': {
    maxReplicas: 6,
    lag: {
      AnnouncementSendRequested: 5,
      EmailDeliveriesQueued: 2,
      EmailPriorityDeliveriesQueued: 2,
      AnnouncementPrioritySendRequested: 5,
      AnnouncementConfirmationRequested: 10,
      AnnouncementDetected: 20,
      ErrorReported: 20,
      CommentPosted: 20,
      CommentResponded: 20,
      ServiceOrderSubmitted: 20,
      MarketDataFailed: 20,
      UserAccessChanged: 20,
      EmailSendExpansionRequested: 5,
    },
  },
};
/** Roles that run as one process: the scheduler's job is a singleton (a standby would only wait for the lock). */
const SINGLE = new Set(['announcements-scheduler']);
/** Roles besides api scaled on CPU: the bounce listener takes SMTP from the internet, as api takes requests. */
const CPU_SCALED = new Set(['email-marketing-bounces']);

/**
 * How the ports a role serves beyond health (services/manifest.json `listeners`) are reached, by Deployment: a
 * Service of each (a LoadBalancer: reporting mail servers connect from the internet to the bounce domain's MX,
 * port 25 there). A listener without an entry here fails the generation.
 */
const LISTENER_SERVICES = {
  'email-marketing-bounces': {
    name: 'email-marketing-bounces-smtp',
    port: 25,
    type: 'LoadBalancer',
    why: "the MX of BOUNCE_DOMAIN: DSNs and ARF reports from the internet's mail servers",
  },
};

/** The manifest's listener of one role, with its Service; undefined when the role serves only health. */
function listenerOf(s, role) {
  const listener = (s.listeners ?? []).find((l) => l.role === role);
  if (!listener) return undefined;
  const name = `${s.name}-${role}`;
  const service = LISTENER_SERVICES[name];
  if (!service) throw new Error(`${name}: deploy/k8s.mjs has no Service for its ${listener.name} listener`);
  return { ...listener, service };
}
/** KEDA's lag below which a role is idle (it matters only to scale from zero; minReplicaCount is 1). */
const ACTIVATION_LAG = 1;
/** A new consumer group starts at the end of its topics (the platform's `fromBeginning: false`). */
const OFFSET_RESET_POLICY = 'latest';

/**
 * Requests and limits of each Deployment from the RSS and CPU bench/scale.bench.mjs measured
 * (deploy/resources.json; the rule is in k8s-resources.mjs).
 */
const resourcesOf = measuredResources();

/** The `node` user of the node images (deploy/Dockerfile's `USER node`). */
const NODE_UID = 1000;
/**
 * Where a service writes besides /tmp (an emptyDir per pod): DATA_DIR, the PDFs of announcements. A poller pod
 * stores a PDF and an api pod serves it, so every role of the service mounts one volume: a ReadWriteMany
 * claim (its storage class is the cluster's default; one that offers ReadWriteMany, e.g. NFS, CephFS, EFS or
 * Azure Files, or an overlay patch naming one). The dev overlay, one node, asks for ReadWriteOnce.
 */
const DATA_DIR = {
  announcements: { path: '/data/announcements', claim: 'announcements-data', size: '20Gi' },
};

const dataClaim = ({ claim, size }, labels) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: claim, labels },
  spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: size } } },
});

/** The Secret every process reads ACTOR_SIGNING_SECRET from, and each one's own. */
const SHARED_SECRET = 'irportal-shared';
export const secretOf = (name) => `irportal-${name}`;

// ---- objects ----------------------------------------------------------------------------------------------

const labelsOf = (name, component) => ({
  'app.kubernetes.io/name': name,
  'app.kubernetes.io/component': component,
  'app.kubernetes.io/part-of': 'irportal',
});

/** How one role of a service (or the gateway) is scaled. */
function scalingOf(service, role) {
  const name = `${service}-${role}`;
  if (role === 'api' || CPU_SCALED.has(name)) return { kind: 'cpu', ...API_REPLICAS };
  if (LAG_SCALED[name]) return { kind: 'lag', min: 1, max: LAG_SCALED[name].maxReplicas };
  if (SINGLE.has(name)) return { kind: 'single' };
  throw new Error(
    `${name}: deploy/k8s.mjs has no scaling for role ${role} of ${service} (add it to LAG_SCALED or SINGLE)`,
  );
}

const POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: NODE_UID,
  runAsGroup: NODE_UID,
  fsGroup: NODE_UID,
  seccompProfile: { type: 'RuntimeDefault' },
};
const CONTAINER_SECURITY = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

/** Spreads an api role's (or the gateway's) pods over zones and nodes, as far as the cluster allows. */
const spread = (labels) =>
  ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) => ({
    maxSkew: 1,
    topologyKey,
    whenUnsatisfiable: 'ScheduleAnyway',
    labelSelector: { matchLabels: labels },
    matchLabelKeys: ['pod-template-hash'],
  }));

const envFromSecrets = (name) => [
  { secretRef: { name: SHARED_SECRET } },
  { secretRef: { name: secretOf(name) } },
];

const env = (values) =>
  Object.entries(values).map(([name, value]) =>
    typeof value === 'string' ? { name, value } : { name, valueFrom: value },
  );

/** Distinguishes processes in logs, metrics and Kafka client ids (the default, the pid, is 1 in every pod). */
const INSTANCE_ID = { fieldRef: { fieldPath: 'metadata.name' } };

const httpProbe = (path, port, periodSeconds, failureThreshold) => ({
  httpGet: { path, port },
  periodSeconds,
  timeoutSeconds: 5,
  failureThreshold,
});

/**
 * A service's probes on its health port. /health is 503 while the database or the broker is away: that makes
 * the pod unready, never restarted. Startup and liveness use /health/live, which answers whenever the
 * process's event loop does and asks nothing of the database or broker; the port opens only once the process
 * has started (migrations run, Kafka consumers joined), so startup allows 5 minutes.
 */
const serviceProbes = {
  startupProbe: httpProbe('/health/live', 'health', 5, 60),
  livenessProbe: httpProbe('/health/live', 'health', 20, 3),
  readinessProbe: httpProbe('/health', 'health', 10, 3),
};

/**
 * The gateway's, on its operations port: /health/live (the process alone). Its /health asks every service
 * through Kafka: one service down would take every gateway out of the Service, so no probe uses it.
 */
const gatewayProbes = {
  startupProbe: httpProbe('/health/live', 'ops', 5, 60),
  livenessProbe: httpProbe('/health/live', 'ops', 20, 3),
  readinessProbe: httpProbe('/health/live', 'ops', 10, 3),
};

function podTemplate({ labels, container, volumes, spreadPods, restartPolicy }) {
  return {
    metadata: { labels },
    spec: {
      ...(restartPolicy ? { restartPolicy } : {}),
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      securityContext: POD_SECURITY,
      ...(spreadPods ? { topologySpreadConstraints: spread(labels) } : {}),
      containers: [
        {
          ...container,
          securityContext: CONTAINER_SECURITY,
          volumeMounts: volumes.map(({ name, mountPath }) => ({ name, mountPath })),
        },
      ],
      volumes: volumes.map(({ name, claim }) =>
        claim ? { name, persistentVolumeClaim: { claimName: claim } } : { name, emptyDir: {} },
      ),
    },
  };
}

function deployment({ name, labels, scaling, template }) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    // No replicas where an autoscaler owns the count: `kubectl apply` would reset it on every deploy.
    spec: {
      ...(scaling.kind === 'single' ? { replicas: 1 } : {}),
      selector: { matchLabels: labels },
      template,
    },
  };
}

const service = (name, labels, ports, type) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels },
  spec: { ...(type ? { type } : {}), selector: labels, ports },
});

/** The volume every role of `s` shares at DATA_DIR, if it writes one. */
function dataClaimObjects(s) {
  const dataDir = DATA_DIR[s.name];
  if (!dataDir) return [];
  return [
    {
      comment: ` ${s.name}'s DATA_DIR, shared by every role's pods (one writes a file, another serves it).`,
      object: dataClaim(dataDir, {
        'app.kubernetes.io/name': s.name,
        'app.kubernetes.io/part-of': 'irportal',
      }),
    },
  ];
}

function roleObjects(s, role) {
  const name = `${s.name}-${role}`;
  const labels = labelsOf(s.name, role);
  const scaling = scalingOf(s.name, role);
  const listener = listenerOf(s, role);
  const dataDir = DATA_DIR[s.name];
  const volumes = [
    { name: 'tmp', mountPath: '/tmp' },
    ...(dataDir ? [{ name: 'data', mountPath: dataDir.path, claim: dataDir.claim }] : []),
  ];
  const container = {
    name: s.name,
    image: `irportal/${s.name}:local`,
    env: env({
      ROLES: role,
      HEALTH_PORT: String(s.healthPort),
      HOST: '0.0.0.0',
      KAFKA_BROKERS: KAFKA_BOOTSTRAP,
      INSTANCE_ID,
      ...(dataDir ? { DATA_DIR: dataDir.path } : {}),
      ...(listener ? { [listener.portEnv]: String(listener.port) } : {}),
    }),
    envFrom: envFromSecrets(s.name),
    ports: [
      { name: 'health', containerPort: s.healthPort },
      ...(listener ? [{ name: listener.name, containerPort: listener.port }] : []),
    ],
    ...serviceProbes,
    resources: resourcesOf(name, role),
  };
  const template = podTemplate({ labels, container, volumes, spreadPods: scaling.kind === 'cpu' });
  return [
    {
      comment: ` ${s.name}, role ${role}: only this role's handlers and jobs run here (ROLES=${role}).`,
      object: deployment({ name, labels, scaling, template }),
    },
    {
      comment: ` ${name}'s /health and /metrics, for a scraper inside the cluster.`,
      object: service(name, labels, [{ name: 'health', port: s.healthPort, targetPort: 'health' }]),
    },
    ...(listener
      ? [
          {
            comment: ` ${name}'s ${listener.name} port, ${listener.service.why}.`,
            object: service(
              listener.service.name,
              labels,
              [{ name: listener.name, port: listener.service.port, targetPort: listener.name }],
              listener.service.type,
            ),
          },
        ]
      : []),
  ];
}

function gatewayObjects() {
  const labels = labelsOf('gateway', 'api');
  const container = {
    name: 'gateway',
    image: 'irportal/gateway:local',
    env: env({
      PORT: '3000',
      HOST: '0.0.0.0',
      OPS_PORT: '3001',
      OPS_HOST: '0.0.0.0',
      KAFKA_BROKERS: KAFKA_BOOTSTRAP,
      INSTANCE_ID,
    }),
    envFrom: envFromSecrets('gateway'),
    ports: [
      { name: 'http', containerPort: 3000 },
      { name: 'ops', containerPort: 3001 },
    ],
    ...gatewayProbes,
    resources: resourcesOf('gateway', 'api'),
  };
  const volumes = [{ name: 'tmp', mountPath: '/tmp' }];
  const template = podTemplate({ labels, container, volumes, spreadPods: true });
  return [
    {
      comment:
        ' The gateway: the HTTP API and the web app on 3000; /health and /metrics on 3001 (OPS_PORT) only.',
      object: deployment({ name: 'gateway', labels, scaling: { kind: 'cpu' }, template }),
    },
    {
      comment: ' What the Ingress sends to: the API and the web app.',
      object: service('gateway', labels, [{ name: 'http', port: 80, targetPort: 'http' }]),
    },
    {
      comment: ' The operations port, for a scraper inside the cluster; never exposed.',
      object: service('gateway-ops', labels, [{ name: 'ops', port: 3001, targetPort: 'ops' }]),
    },
  ];
}

function topicsJob() {
  const labels = labelsOf('topics', 'job');
  const container = {
    name: 'topics',
    image: 'irportal/gateway:local',
    command: ['node', 'deploy/local/infra.mjs', 'topics'],
    env: env({
      KAFKA_BROKERS: KAFKA_BOOTSTRAP,
      KAFKA_REPLICATION_FACTOR: String(TOPIC_REPLICATION.base),
    }),
    // Its SASL user (KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD): one allowed to create topics.
    envFrom: [{ secretRef: { name: secretOf('topics') } }],
    resources: resourcesOf('topics', 'job'),
  };
  const volumes = [{ name: 'tmp', mountPath: '/tmp' }];
  return {
    comment:
      ' One-shot: creates every topic of the proto/ catalogue (request, <service>.reply, event, .dlq) as deploy/topics.json\n' +
      ' sets it, grows any with fewer partitions and resets any other retention or cleanup policy, then exits. Gone an hour after it finishes, so the next apply runs it\n' +
      ' again (its pod template cannot change while it exists: delete it first to apply a change sooner).',
    object: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'topics', labels },
      spec: {
        backoffLimit: 10,
        ttlSecondsAfterFinished: 3600,
        template: podTemplate({ labels, container, volumes, restartPolicy: 'OnFailure' }),
      },
    },
  };
}

/**
 * The platform's tenants of the database (services/platform/src/database-roles.ts, which the infra suite
 * checks this against): each service, then the gateway, and the variable the bootstrap reads each one's URL
 * from.
 */
const databaseTenants = (services) => [...services, { name: 'gateway', schema: 'gateway' }];
const tenantUrlVariable = (schema) => `DATABASE_URL_${schema.toUpperCase()}`;

function databaseJob(services) {
  const labels = labelsOf('database', 'job');
  const container = {
    name: 'database',
    image: 'irportal/gateway:local',
    command: ['node', 'deploy/local/infra.mjs', 'database'],
    // Each tenant's (each service's and the gateway's) role and password, read from its own Secret: written
    // once, where the process reads them (docs/adr/0011).
    env: env(
      Object.fromEntries(
        databaseTenants(services).map(({ name, schema }) => [
          tenantUrlVariable(schema),
          { secretKeyRef: { name: secretOf(name), key: 'DATABASE_URL' } },
        ]),
      ),
    ),
    // DATABASE_ADMIN_URL: a role that may create roles and schemas; only this Job reads it.
    envFrom: [{ secretRef: { name: secretOf('database-admin') } }],
    resources: resourcesOf('database', 'job'),
  };
  return {
    comment:
      ' One-shot: gives each service (and the gateway) its PostgreSQL login role and the schema it owns, and\n' +
      ' takes from PUBLIC the rights to connect and create (docs/adr/0011); idempotent. A service started\n' +
      ' before it finishes restarts until its role and schema exist. Gone an hour after it finishes.',
    object: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'database', labels },
      spec: {
        backoffLimit: 10,
        ttlSecondsAfterFinished: 3600,
        template: podTemplate({
          labels,
          container,
          volumes: [{ name: 'tmp', mountPath: '/tmp' }],
          restartPolicy: 'OnFailure',
        }),
      },
    },
  };
}

const egressTo = (needs) => needs.map((need) => ({ ports: PORTS[need] }));

function networkPolicy(name, podSelector, spec) {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, labels: { 'app.kubernetes.io/part-of': 'irportal' } },
    spec: { podSelector, ...spec },
  };
}

function networkPolicies(services) {
  const byName = (name) => ({ matchLabels: { 'app.kubernetes.io/name': name } });
  return [
    {
      comment: ' Nothing in or out unless a policy below allows it.',
      object: networkPolicy('default-deny', {}, { policyTypes: ['Ingress', 'Egress'] }),
    },
    {
      comment:
        ' Ingress: the gateway public port only (the ingress controller); probes come from the kubelet.',
      object: networkPolicy('gateway-ingress', byName('gateway'), {
        policyTypes: ['Ingress'],
        ingress: [{ ports: [{ protocol: 'TCP', port: 'http' }] }],
      }),
    },
    {
      comment: ' The gateway reaches Kafka, PostgreSQL (the rate limits) and DNS.',
      object: networkPolicy('gateway-egress', byName('gateway'), {
        policyTypes: ['Egress'],
        egress: egressTo(['dns', 'kafka', 'postgres']),
      }),
    },
    {
      comment: ' The database Job reaches PostgreSQL and DNS.',
      object: networkPolicy('database-egress', byName('database'), {
        policyTypes: ['Egress'],
        egress: egressTo(['dns', 'postgres']),
      }),
    },
    {
      comment: ' The topics Job reaches Kafka and DNS.',
      object: networkPolicy('topics-egress', byName('topics'), {
        policyTypes: ['Egress'],
        egress: egressTo(['dns', 'kafka']),
      }),
    },
    ...services.flatMap((s) =>
      s.roles
        .filter((role) => listenerOf(s, role))
        .map((role) => {
          const listener = listenerOf(s, role);
          return {
            comment: ` Ingress: ${s.name}-${role}'s ${listener.name} port from anywhere (${listener.service.why}).`,
            object: networkPolicy(
              `${s.name}-${role}-ingress`,
              { matchLabels: labelsOf(s.name, role) },
              { policyTypes: ['Ingress'], ingress: [{ ports: [{ protocol: 'TCP', port: listener.name }] }] },
            ),
          };
        }),
    ),
    ...services.map((s) => ({
      comment: ` ${s.name} reaches Kafka, PostgreSQL, DNS${(SERVICE_EGRESS[s.name] ?? []).map((n) => `, ${n}`).join('')}.`,
      object: networkPolicy(`${s.name}-egress`, byName(s.name), {
        policyTypes: ['Egress'],
        egress: egressTo(['dns', 'kafka', 'postgres', ...(SERVICE_EGRESS[s.name] ?? [])]),
      }),
    })),
  ];
}

// ---- autoscaling (components/autoscaling) -----------------------------------------------------------------

const deploymentRef = (name) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name });

function cpuAutoscaler(name, labels, { min, max }) {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, labels },
    spec: {
      scaleTargetRef: deploymentRef(name),
      minReplicas: min,
      maxReplicas: max,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: CPU_TARGET_PERCENT } },
        },
      ],
    },
  };
}

/** At most one pod of a role evicted at a time (drains, upgrades), for roles with more than one. */
const disruptionBudget = (name, labels) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, labels },
  spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
});

const kafkaAuthOf = (service) => `${service}-kafka`;

/** KEDA reads the consumer group's offsets with the service's own SASL credentials. */
const triggerAuthentication = (service) => ({
  apiVersion: 'keda.sh/v1alpha1',
  kind: 'TriggerAuthentication',
  metadata: { name: kafkaAuthOf(service), labels: { 'app.kubernetes.io/name': service } },
  spec: {
    secretTargetRef: [
      { parameter: 'username', name: secretOf(service), key: 'KAFKA_SASL_USERNAME' },
      { parameter: 'password', name: secretOf(service), key: 'KAFKA_SASL_PASSWORD' },
    ],
  },
});

/** `s` a manifest entry: each topic's trigger reads the group the role consumes it in (its own consumers'). */
function lagAutoscaler(s, role, labels, Topics) {
  const name = `${s.name}-${role}`;
  const { maxReplicas, lag } = LAG_SCALED[name];
  return {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: { name, labels },
    spec: {
      scaleTargetRef: { name },
      minReplicaCount: 1,
      maxReplicaCount: maxReplicas,
      triggers: Object.entries(lag).map(([constant, threshold]) => {
        const topic = Topics[constant];
        if (!topic) throw new Error(`${name}: proto has no Topics.${constant}`);
        return {
          type: 'kafka',
          name: topic.replace(/\./g, '-'),
          metadata: {
            bootstrapServers: KAFKA_BOOTSTRAP,
            consumerGroup: topicGroupOf(s, role, topic),
            topic,
            lagThreshold: String(threshold),
            activationLagThreshold: String(ACTIVATION_LAG),
            offsetResetPolicy: OFFSET_RESET_POLICY,
            sasl: 'scram_sha512',
            tls: 'disable',
          },
          authenticationRef: { name: kafkaAuthOf(s.name) },
        };
      }),
    },
  };
}

/** The consumer groups of a role, for a comment: the role's own, and those of its own consumers. */
function lagGroupsOf(s, role) {
  const groups = consumerGroupsOf({ ...s, roles: [role] });
  return groups.length > 1 ? `consumer groups ${groups.join(' and ')}` : `consumer group ${groups[0]}`;
}

function autoscalingObjects(s, Topics) {
  const out = [];
  for (const role of s.roles) {
    const name = `${s.name}-${role}`;
    const labels = labelsOf(s.name, role);
    const scaling = scalingOf(s.name, role);
    if (scaling.kind === 'cpu')
      out.push({ comment: ` ${name}: CPU.`, object: cpuAutoscaler(name, labels, scaling) });
    if (scaling.kind === 'lag')
      out.push({
        comment: ` ${name}: the lag of ${lagGroupsOf(s, role)} on each topic it handles.`,
        object: lagAutoscaler(s, role, labels, Topics),
      });
    if (scaling.kind !== 'single' && scaling.min > 1) out.push({ object: disruptionBudget(name, labels) });
  }
  if (s.roles.some((role) => scalingOf(s.name, role).kind === 'lag'))
    out.push({ object: triggerAuthentication(s.name) });
  return out;
}

function gatewayAutoscaling() {
  const labels = labelsOf('gateway', 'api');
  return [
    {
      comment: ` gateway: CPU, at most GATEWAY_INSTANCES (${GATEWAY_INSTANCES}) replicas: one reply partition each.`,
      object: cpuAutoscaler('gateway', labels, GATEWAY_REPLICAS),
    },
    { object: disruptionBudget('gateway', labels) },
  ];
}

// ---- overlays -----------------------------------------------------------------------------------------------

const addEnv = (name, value) => ({
  op: 'add',
  path: '/spec/template/spec/containers/0/env/-',
  value: { name, value },
});

/** Sets a variable the base gives a value (by its index, which the `test` op checks first). */
function setEnv(object, name, value) {
  const at = object.spec.template.spec.containers[0].env.findIndex((e) => e.name === name);
  if (at === -1) throw new Error(`${object.metadata.name} has no ${name} to set`);
  const path = `/spec/template/spec/containers/0/env/${at}`;
  return [
    { op: 'test', path: `${path}/name`, value: name },
    { op: 'replace', path: `${path}/value`, value },
  ];
}

export const INGRESS_HOST = 'irportal.example.com';
export const TLS_SECRET = 'irportal-tls';

function namespaceObject(name) {
  return {
    comment: ' Pods here must meet the Pod Security Standards restricted profile.',
    object: {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/enforce-version': 'latest',
        },
      },
    },
  };
}

function ingress() {
  return {
    comment: ` The public entry: ${INGRESS_HOST} (set yours) over TLS, certificate in Secret ${TLS_SECRET}.`,
    object: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'gateway', labels: labelsOf('gateway', 'api') },
      spec: {
        tls: [{ hosts: [INGRESS_HOST], secretName: TLS_SECRET }],
        rules: [
          {
            host: INGRESS_HOST,
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'gateway', port: { name: 'http' } } },
                },
              ],
            },
          },
        ],
      },
    },
  };
}

/** The two overlays: what each adds to the base and how it patches it (Kustomize JSON 6902 patches). */
const OVERLAYS = {
  dev: {
    namespace: 'irportal-dev',
    components: [],
    resources: () => ({ 'namespace.yaml': [namespaceObject('irportal-dev')] }),
    patches: [
      {
        why: 'development mode and one replica of everything',
        target: { kind: 'Deployment' },
        ops: [addEnv('NODE_ENV', 'development'), { op: 'add', path: '/spec/replicas', value: 1 }],
      },
      {
        why: 'one node: a volume its pods share needs no ReadWriteMany (which local storage seldom offers)',
        target: { kind: 'PersistentVolumeClaim' },
        ops: [{ op: 'replace', path: '/spec/accessModes', value: ['ReadWriteOnce'] }],
      },
      {
        why: 'one broker: one replica of each topic',
        target: { kind: 'Job', name: 'topics' },
        ops: setEnv(topicsJob().object, 'KAFKA_REPLICATION_FACTOR', String(TOPIC_REPLICATION.dev)),
      },
    ],
  },
  prod: {
    namespace: 'irportal',
    components: ['autoscaling', 'monitoring', 'strimzi'],
    resources: () => ({ 'namespace.yaml': [namespaceObject('irportal')], 'ingress.yaml': [ingress()] }),
    patches: [
      {
        why: 'production mode: real secrets required, secure cookies, no API docs',
        target: { kind: 'Deployment' },
        ops: [addEnv('NODE_ENV', 'production')],
      },
      {
        why: 'links in mails (confirm, unsubscribe, PDFs) lead to the public host',
        target: { kind: 'Deployment', labelSelector: 'app.kubernetes.io/name=email-marketing' },
        ops: [addEnv('PUBLIC_BASE_URL', `https://${INGRESS_HOST}`)],
      },
      {
        why: 'passkeys are bound to the public host (WebAuthn relying party) and made only on its https origin',
        target: { kind: 'Deployment', labelSelector: 'app.kubernetes.io/name=users' },
        ops: [addEnv('WEBAUTHN_RP_ID', INGRESS_HOST), addEnv('WEBAUTHN_ORIGINS', `https://${INGRESS_HOST}`)],
      },
      {
        why: "believe X-Forwarded-For from one hop, the ingress controller: the sign-in limits count clients' addresses",
        target: { kind: 'Deployment', name: 'gateway' },
        ops: [addEnv('TRUST_PROXY', '1')],
      },
    ],
  },
};
export const OVERLAY_NAMES = Object.keys(OVERLAYS);

// ---- the tree -----------------------------------------------------------------------------------------------

/** @irp/proto's topics and catalogues, from proto/dist (built first: quick when it is current). */
export function loadProto() {
  buildProto();
  const { Topics, allTopics, RequestCatalogue, EventCatalogue, replyTopic } = require(
    path.join(ROOT, 'proto', 'dist'),
  );
  return { Topics, allTopics, RequestCatalogue, EventCatalogue, replyTopic };
}

/** Files (name -> entries of { comment?, object }) of the base and of each component. */
function parts(services, proto) {
  const { Topics } = proto;
  const base = {
    'network-policies.yaml': networkPolicies(services),
    ...Object.fromEntries(
      services.map((s) => [
        `${s.name}.yaml`,
        [...dataClaimObjects(s), ...s.roles.flatMap((role) => roleObjects(s, role))],
      ]),
    ),
    'gateway.yaml': gatewayObjects(),
    'topics-job.yaml': [topicsJob()],
    'database-job.yaml': [databaseJob(services)],
  };
  const autoscaling = {
    ...Object.fromEntries(services.map((s) => [`${s.name}.yaml`, autoscalingObjects(s, Topics)])),
    'gateway.yaml': gatewayAutoscaling(),
  };
  for (const [file, entries] of Object.entries(autoscaling)) if (!entries.length) delete autoscaling[file];
  const strimzi = strimziFiles(services, proto, {
    cluster: KAFKA_CLUSTER,
    replicas: TOPIC_REPLICATION.base,
    secretOf,
    consumerGroupsOf,
    root: ROOT,
  });
  const monitoring = monitoringParts(services, { consumerGroupsOf });
  return { base, components: { autoscaling, monitoring, strimzi } };
}

const objectsOf = (files) => Object.values(files).flatMap((entries) => entries.map((e) => e.object));

/**
 * The objects `kubectl kustomize deploy/k8s/overlays/<name>` gives for these services: what the infra suite
 * validates.
 */
export function renderedOverlay(name, services, proto) {
  const overlay = OVERLAYS[name];
  const { base, components } = parts(services, proto);
  const objects = [
    ...objectsOf(overlay.resources()),
    ...objectsOf(base),
    ...overlay.components.flatMap((c) => objectsOf(components[c])),
  ];
  return renderOverlay(objects, overlay);
}

const HEADER = `# GENERATED by \`${COMMAND}\` from services/manifest.json: do not edit by hand. Change the
# manifest (or the generator) and run it again; \`${COMMAND} --check\` (run by \`make test\`) fails when
# this file is not what they give.
`;

/** No anchors for objects used twice (labels): every object reads on its own. No folded lines. */
const YAML_OPTIONS = { aliasDuplicateObjects: false, lineWidth: 0 };

/** A YAML stream of objects, each after its comment. */
function yamlStream(entries) {
  return entries
    .map(({ comment, object }) => {
      const doc = new YAML.Document(object, YAML_OPTIONS);
      if (comment) doc.contents.commentBefore = comment;
      return doc.toString(YAML_OPTIONS);
    })
    .join('---\n');
}

function kustomization(kind, fields) {
  const apiVersion =
    kind === 'Component' ? 'kustomize.config.k8s.io/v1alpha1' : 'kustomize.config.k8s.io/v1beta1';
  return new YAML.Document({ apiVersion, kind, ...fields }, YAML_OPTIONS).toString(YAML_OPTIONS);
}

const patchEntry = ({ target, ops }) => ({ target, patch: YAML.stringify(ops, YAML_OPTIONS) });

/** Every file of deploy/k8s/ for these manifest services: relative path -> text. */
export async function k8sTree(services, proto = loadProto()) {
  const { base, components } = parts(services, proto);
  const files = new Map();
  const put = (dir, name, text) => files.set(path.posix.join(dir, name), text);
  for (const [name, entries] of Object.entries(base)) put('base', name, yamlStream(entries));
  put('base', 'kustomization.yaml', kustomization('Kustomization', { resources: Object.keys(base) }));
  for (const [component, byFile] of Object.entries(components)) {
    const dir = `components/${component}`;
    for (const [name, entries] of Object.entries(byFile)) put(dir, name, yamlStream(entries));
    put(dir, 'kustomization.yaml', kustomization('Component', { resources: Object.keys(byFile) }));
  }
  for (const [name, overlay] of Object.entries(OVERLAYS)) {
    const dir = `overlays/${name}`;
    const own = overlay.resources();
    for (const [file, entries] of Object.entries(own)) put(dir, file, yamlStream(entries));
    const fields = {
      namespace: overlay.namespace,
      resources: [...Object.keys(own), '../../base'],
      ...(overlay.components.length
        ? { components: overlay.components.map((c) => `../../components/${c}`) }
        : {}),
      patches: overlay.patches.map(patchEntry),
    };
    put(dir, 'kustomization.yaml', kustomizationWithReasons(fields, overlay.patches));
  }
  const out = new Map();
  for (const [file, text] of files)
    out.set(
      file,
      await prettier.format(`${HEADER}\n${text}`, { ...PRETTIER, filepath: path.join(K8S_DIR, file) }),
    );
  return out;
}

/** An overlay's kustomization.yaml, each patch after a comment saying why. */
function kustomizationWithReasons(fields, patches) {
  const doc = new YAML.Document(
    { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', ...fields },
    YAML_OPTIONS,
  );
  const items = doc.get('patches').items;
  patches.forEach((p, i) => (items[i].commentBefore = ` ${p.why}`));
  return doc.toString(YAML_OPTIONS);
}

const PRETTIER = (await prettier.resolveConfig(path.join(K8S_DIR, 'base', 'kustomization.yaml'))) ?? {};

if (isMain(import.meta.url)) {
  process.exitCode = await treeGeneratorCli(
    { tag: 'k8s', command: COMMAND, defaultOut: K8S_DIR, render: (services) => k8sTree(services) },
    process.argv.slice(2),
  );
}
