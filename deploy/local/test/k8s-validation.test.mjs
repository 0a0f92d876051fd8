// Every object the dev and prod overlays of deploy/k8s/ render to (deploy/k8s.mjs's rendering, which
// k8s-generated.test.mjs proves equal to Kustomize's), checked offline: against the Kubernetes and KEDA
// schemas, and against the project's policies (k8s-checks.mjs). Broken copies of the objects prove the checks
// refuse what they should.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readManifest } from '../../generated.mjs';
import { INGRESS_HOST, loadProto, renderedOverlay, TLS_SECRET } from '../../k8s.mjs';
import { plannedTopics } from '../../topic-settings.mjs';
import { policyProblems, schemaProblems } from './k8s-checks.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// The platform's own rule (Node strips the types of this dependency-free module).
const { topicGroupOf } = await import('../../../services/platform/src/roles.ts');
const { databaseTenants, tenantUrlVariable } =
  await import('../../../services/platform/src/database-roles.ts');

const services = readManifest();
const proto = loadProto();
const render = (overlay) => renderedOverlay(overlay, services, proto);

/** The topics as deploy/topics.json plans them, in proto's order. */
const topics = plannedTopics({
  names: proto.allTopics().map((t) => t.name),
  requestCatalogue: proto.RequestCatalogue,
});
const fewestPartitions = (list) => Math.min(...list.map((t) => t.partitions));

/**
 * What the policies need to know besides the objects: the manifest, the platform's groups, the topics
 * (deploy/topics.json: the partitions every consumer role scales up to).
 */
function contextOf(overlay, plan = topics) {
  const partitions = new Map(plan.map((t) => [t.name, t.partitions]));
  return {
    services,
    topicGroupOf,
    topics: plan,
    partitionsOf: (topic) => partitions.get(topic),
    requestPartitions: fewestPartitions(plan.filter((t) => proto.RequestCatalogue[t.name])),
    replyPartitions: fewestPartitions(plan.filter((t) => t.name.endsWith('.reply'))),
    autoscaled: overlay === 'prod',
    multiNode: overlay !== 'dev',
    strimzi: overlay === 'prod',
  };
}

const find = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const envOf = (deployment) => deployment.spec.template.spec.containers[0].env;
const valueOf = (deployment, name) => envOf(deployment).find((e) => e.name === name)?.value;

for (const overlay of ['dev', 'prod']) {
  test(`${overlay}: every object is valid against its Kubernetes, KEDA or vendored CRD schema`, () => {
    const objects = render(overlay);
    assert.ok(objects.length > 20, `${objects.length} objects`);
    assert.deepEqual(schemaProblems(objects), []);
  });

  test(`${overlay}: every policy holds (roles, probes, resources, restricted security, secrets, availability, network${overlay === 'prod' ? ', autoscaling, Strimzi' : ''})`, () => {
    const objects = render(overlay);
    assert.deepEqual(policyProblems(objects, contextOf(overlay)), []);
  });
}

test('dev: one replica of every Deployment and of each topic, development mode, nothing autoscaled', () => {
  const objects = render('dev');
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    assert.equal(d.spec.replicas, 1, d.metadata.name);
    assert.equal(valueOf(d, 'NODE_ENV'), 'development', d.metadata.name);
    assert.equal(d.metadata.namespace, 'irportal-dev');
  }
  assert.equal(valueOf(find(objects, 'Job', 'topics'), 'KAFKA_REPLICATION_FACTOR'), '1', 'one broker');
  for (const kind of [
    'HorizontalPodAutoscaler',
    'ScaledObject',
    'TriggerAuthentication',
    'PodDisruptionBudget',
    'Ingress',
  ])
    assert.deepEqual(
      objects.filter((o) => o.kind === kind),
      [],
      kind,
    );
});

test('prod: production mode everywhere, the gateway believes one proxy hop, mails link to the public host, topics have three replicas, and an Ingress with TLS reaches it', () => {
  const objects = render('prod');
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    assert.equal(valueOf(d, 'NODE_ENV'), 'production', d.metadata.name);
    assert.equal(d.metadata.namespace, 'irportal');
  }
  assert.equal(valueOf(find(objects, 'Deployment', 'gateway'), 'TRUST_PROXY'), '1');
  assert.equal(valueOf(find(objects, 'Job', 'topics'), 'KAFKA_REPLICATION_FACTOR'), '3');
  for (const role of ['api', 'sender'])
    assert.equal(
      valueOf(find(objects, 'Deployment', `email-marketing-${role}`), 'PUBLIC_BASE_URL'),
      `https://${INGRESS_HOST}`,
    );
  const ingress = find(objects, 'Ingress', 'gateway');
  assert.deepEqual(ingress.spec.tls, [{ hosts: [INGRESS_HOST], secretName: TLS_SECRET }]);
  const backend = ingress.spec.rules[0].http.paths[0].backend.service;
  const service = find(objects, 'Service', backend.name);
  assert.ok(service.spec.ports.some((p) => p.name === backend.port.name));
  const namespace = find(objects, 'Namespace', 'irportal');
  assert.equal(namespace.metadata.labels['pod-security.kubernetes.io/enforce'], 'restricted');
});

/**
 * The topics a role's handlers take, read from its service's code: the role's handler classes in
 * app.module.ts, then each class's @HandleEvent / @HandleRequest(Topics.X).
 */
function handledTopics(service, role) {
  const dir = path.join(ROOT, 'services', service, 'src');
  const module = fs.readFileSync(path.join(dir, 'app.module.ts'), 'utf8');
  const classes = new RegExp(`\\b${role}: \\{\\s*handlers: \\[([^\\]]*)\\]`).exec(module)?.[1];
  assert.ok(classes, `${service}/src/app.module.ts: no handlers of role ${role} found`);
  return classes
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .flatMap((name) => {
      const from = new RegExp(`import \\{ ${name} \\} from '(\\./[^']+)';`).exec(module)?.[1];
      assert.ok(from, `${service}: where ${name} comes from`);
      const code = fs.readFileSync(path.join(dir, `${from}.ts`), 'utf8');
      return [...code.matchAll(/@Handle(?:Event|Request)\(Topics\.(\w+)\)/g)].map((m) => proto.Topics[m[1]]);
    });
}

test("each ScaledObject's triggers are exactly the topics its role's handlers take", () => {
  const objects = render('prod');
  const scaled = objects.filter((o) => o.kind === 'ScaledObject');
  assert.ok(scaled.length >= 2);
  for (const so of scaled) {
    const target = find(objects, 'Deployment', so.spec.scaleTargetRef.name);
    const service = target.metadata.labels['app.kubernetes.io/name'];
    const role = target.metadata.labels['app.kubernetes.io/component'];
    const triggers = so.spec.triggers.map((t) => t.metadata.topic).sort();
    assert.deepEqual(triggers, handledTopics(service, role).sort(), so.metadata.name);
  }
});

/** A prod rendering with `change` applied to one object; the problems both checks find in it. */
function problemsAfter(kind, name, change) {
  const objects = render('prod');
  const object = find(objects, kind, name);
  assert.ok(object, `${kind} ${name}`);
  change(object, objects);
  return {
    schema: schemaProblems(objects),
    policy: policyProblems(objects, contextOf('prod')),
  };
}

const container = (d) => d.spec.template.spec.containers[0];

test('a probe on a port the container does not declare is refused, by name or by number', () => {
  const byName = problemsAfter(
    'Deployment',
    'users-api',
    (d) => (container(d).readinessProbe.httpGet.port = 'metrics'),
  );
  assert.deepEqual(byName.schema, []);
  assert.deepEqual(byName.policy, [
    "Deployment users-api: users's readinessProbe is on port metrics, which the container does not declare",
  ]);
  const byNumber = problemsAfter(
    'Deployment',
    'gateway',
    (d) => (container(d).livenessProbe.httpGet.port = 8080),
  );
  assert.deepEqual(byNumber.policy, [
    "Deployment gateway: gateway's livenessProbe is on port 8080, which the container does not declare",
  ]);
  const none = problemsAfter('Deployment', 'announcements-poller', (d) => delete container(d).startupProbe);
  assert.deepEqual(none.policy, [
    'Deployment announcements-poller: container announcements has no startupProbe',
  ]);
});

test('an unquoted numeric lagThreshold is refused by the KEDA schema and by the policy', () => {
  const { schema, policy } = problemsAfter(
    'ScaledObject',
    'email-marketing-sender',
    (so) => (so.spec.triggers[1].metadata.lagThreshold = 2),
  );
  assert.equal(schema.length, 1, schema.join('\n'));
  assert.match(
    schema[0],
    /^ScaledObject email-marketing-sender: .*triggers\/1\/metadata\/lagThreshold must be string/,
  );
  assert.deepEqual(policy, [
    'ScaledObject email-marketing-sender: trigger email-deliveries-queued: lagThreshold is not a quoted whole number',
  ]);
});

// Each broken copy, and the problem that must be found in it (and only it).
const BROKEN = [
  {
    what: 'a container running as root',
    kind: 'Deployment',
    name: 'stocks-api',
    change: (d) => (d.spec.template.spec.securityContext.runAsUser = 0),
    problem: 'Deployment stocks-api: container stocks: runAsUser is 0 (a non-root uid is needed)',
  },
  {
    what: 'a writable root filesystem',
    kind: 'Deployment',
    name: 'gateway',
    change: (d) => (container(d).securityContext.readOnlyRootFilesystem = false),
    problem: 'Deployment gateway: container gateway: the root filesystem is writable',
  },
  {
    what: "no volume at announcements' DATA_DIR",
    kind: 'Deployment',
    name: 'announcements-poller',
    change: (d) => (container(d).volumeMounts = container(d).volumeMounts.filter((m) => m.name !== 'data')),
    problem:
      "Deployment announcements-poller: container announcements: DATA_DIR /data/announcements is not on a PersistentVolumeClaim (the service's roles share it)",
  },
  {
    what: "announcements' DATA_DIR on an emptyDir of the pod's own (the api pods would not see a poller's PDFs)",
    kind: 'Deployment',
    name: 'announcements-poller',
    change: (d) => {
      const data = d.spec.template.spec.volumes.find((v) => v.name === 'data');
      delete data.persistentVolumeClaim;
      data.emptyDir = {};
    },
    problem:
      "Deployment announcements-poller: container announcements: DATA_DIR /data/announcements is not on a PersistentVolumeClaim (the service's roles share it)",
  },
  {
    what: "announcements' roles on different claims",
    kind: 'Deployment',
    name: 'announcements-api',
    change: (d, objects) => {
      d.spec.template.spec.volumes.find((v) => v.name === 'data').persistentVolumeClaim.claimName =
        'api-data';
      objects.push({
        ...find(objects, 'PersistentVolumeClaim', 'announcements-data'),
        metadata: { name: 'api-data' },
      });
    },
    problem: 'announcements: its pods mount DATA_DIR from different claims (announcements-data, api-data)',
  },
  {
    what: 'a claim for DATA_DIR that pods on several nodes cannot share',
    kind: 'PersistentVolumeClaim',
    name: 'announcements-data',
    change: (c) => (c.spec.accessModes = ['ReadWriteOnce']),
    problem:
      'PersistentVolumeClaim announcements-data: ReadWriteOnce, but 3 Deployments of announcements mount it from any node (ReadWriteMany)',
  },
  {
    what: 'capabilities kept',
    kind: 'Job',
    name: 'topics',
    change: (j) => delete container(j).securityContext.capabilities,
    problem: 'Job topics: container topics: capabilities do not drop ALL',
  },
  {
    what: 'no memory limit',
    kind: 'Deployment',
    name: 'reports-api',
    change: (d) => delete container(d).resources.limits.memory,
    problem: 'Deployment reports-api: container reports has no memory limits',
  },
  {
    what: 'a secret written into the repository',
    kind: 'Deployment',
    name: 'gateway',
    change: (d) => container(d).env.push({ name: 'SESSION_SECRET', value: 'x'.repeat(32) }),
    problem: 'Deployment gateway: SESSION_SECRET has a value in the repository (use a Secret)',
  },
  {
    what: "a ScaledObject reading another role's consumer group",
    kind: 'ScaledObject',
    name: 'announcements-poller',
    change: (so) => (so.spec.triggers[0].metadata.consumerGroup = 'announcements'),
    problem:
      "ScaledObject announcements-poller: trigger announcements-poll-requested: consumerGroup announcements, but announcements's poller consumes announcements.poll-requested as announcements.poller",
  },
  {
    what: 'more KEDA replicas than partitions (each topic named)',
    kind: 'ScaledObject',
    name: 'announcements-poller',
    change: (so) => (so.spec.maxReplicaCount = 7),
    problem: [
      "ScaledObject announcements-poller: trigger announcements-poll-requested: maxReplicaCount 7 exceeds announcements.poll-requested's 6 partitions",
      "ScaledObject announcements-poller: trigger initial-poll-requested: maxReplicaCount 7 exceeds initial-poll.requested's 6 partitions",
      "ScaledObject announcements-poller: trigger announcement-detected: maxReplicaCount 7 exceeds announcement.detected's 6 partitions",
      "ScaledObject announcements-poller: trigger announcements-market-items-listed: maxReplicaCount 7 exceeds announcements.market-items-listed's 6 partitions",
    ],
  },
  {
    what: 'scaling to zero',
    kind: 'ScaledObject',
    name: 'email-marketing-sender',
    change: (so) => (so.spec.minReplicaCount = 0),
    problem: 'ScaledObject email-marketing-sender: minReplicaCount 0 (at least 1)',
  },
  {
    what: 'a misspelt KEDA kafka parameter (KEDA would ignore it and scale on its default)',
    kind: 'ScaledObject',
    name: 'email-marketing-sender',
    change: (so) => {
      const m = so.spec.triggers[1].metadata;
      m.lagTreshold = m.lagThreshold;
    },
    problem:
      "ScaledObject email-marketing-sender: trigger email-deliveries-queued: KEDA's kafka scaler has no parameter lagTreshold",
  },
  {
    what: "a SASL mechanism KEDA's kafka scaler does not take",
    kind: 'ScaledObject',
    name: 'email-marketing-sender',
    change: (so) => (so.spec.triggers[1].metadata.sasl = 'SCRAM-SHA-512'),
    problem:
      'ScaledObject email-marketing-sender: trigger email-deliveries-queued: sasl SCRAM-SHA-512 (KEDA takes none, plaintext, scram_sha256, scram_sha512, oauthbearer, gssapi)',
  },
  {
    what: 'more gateways than reply partitions',
    kind: 'HorizontalPodAutoscaler',
    name: 'gateway',
    change: (h) => (h.spec.maxReplicas = 8),
    problem: 'HorizontalPodAutoscaler gateway: maxReplicas 8 exceeds the 6 partitions it consumes',
  },
  {
    what: 'an api role without its disruption budget',
    kind: 'PodDisruptionBudget',
    name: 'users-api',
    change: (pdb, objects) => objects.splice(objects.indexOf(pdb), 1),
    problem: 'Deployment users-api: 2 replicas and no PodDisruptionBudget',
  },
  {
    what: 'ingress admitted to a service',
    kind: 'NetworkPolicy',
    name: 'users-egress',
    change: (p) => (p.spec.ingress = [{}]),
    problem: 'NetworkPolicy users-egress: admits ingress to pods other than the gateway',
  },
  {
    what: "ingress to a listener's pods on a port other than the listener's",
    kind: 'NetworkPolicy',
    name: 'email-marketing-bounces-ingress',
    change: (p) => p.spec.ingress[0].ports.push({ protocol: 'TCP', port: 'health' }),
    problem: 'NetworkPolicy email-marketing-bounces-ingress: admits ingress to pods other than the gateway',
  },
  {
    what: 'a role without its Deployment',
    kind: 'Deployment',
    name: 'announcements-scheduler',
    change: (d, objects) => objects.splice(objects.indexOf(d), 1),
    problem: 'announcements: role scheduler has no Deployment announcements-scheduler',
  },
];

for (const { what, kind, name, change, problem } of BROKEN)
  test(`the policies refuse ${what}`, () => {
    const { policy } = problemsAfter(kind, name, change);
    assert.deepEqual(policy, Array.isArray(problem) ? problem : [problem]);
  });

test('an object of a kind with no schema, or with a wrong type, is refused by the schema check', () => {
  const objects = render('prod');
  objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'irportal-shared' }, stringData: {} });
  const deployment = find(objects, 'Deployment', 'stocks-api');
  container(deployment).ports[0].containerPort = '3102';
  assert.deepEqual(schemaProblems(objects), [
    'Deployment stocks-api: data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
    'Secret irportal-shared: no schema for v1 Secret',
  ]);
  assert.ok(
    policyProblems(objects, contextOf('prod')).includes('Secret irportal-shared: a Secret in the repository'),
  );
});

// ---- Strimzi and the Prometheus operator: the vendored CRDs (crd-schemas.mjs) and the Strimzi policies ----

test('a KafkaTopic with partitions as a string, or with a field its CRD lacks, is refused by its schema', () => {
  const { schema, policy } = problemsAfter('KafkaTopic', 'users.authenticate', (t) => {
    t.spec.partitions = '6';
    t.spec.retention = '5m';
  });
  assert.deepEqual(schema, [
    'KafkaTopic users.authenticate: /spec has unknown field retention',
    'KafkaTopic users.authenticate: /spec/partitions must be integer',
  ]);
  assert.deepEqual(policy, [
    "KafkaTopic users.authenticate: not deploy/topics.json's partitions and configuration",
  ]);
});

test('a KafkaTopic or KafkaUser without the strimzi.io/cluster label, or of another cluster, is refused', () => {
  const topic = problemsAfter(
    'KafkaTopic',
    'stock.upserted',
    (t) => delete t.metadata.labels['strimzi.io/cluster'],
  );
  assert.deepEqual(topic.schema, []);
  assert.deepEqual(topic.policy, [
    'KafkaTopic stock.upserted: label strimzi.io/cluster is missing, not irportal (KAFKA_BROKERS)',
  ]);
  const user = problemsAfter(
    'KafkaUser',
    'users',
    (u) => (u.metadata.labels['strimzi.io/cluster'] = 'other'),
  );
  assert.deepEqual(user.policy, [
    'KafkaUser users: label strimzi.io/cluster is other, not irportal (KAFKA_BROKERS)',
  ]);
});

test('a KafkaUser ACL with an unknown operation or resource type is refused by its schema', () => {
  const { schema } = problemsAfter('KafkaUser', 'stocks', (u) => {
    u.spec.authorization.acls[0].operations.push('Publish');
    u.spec.authorization.acls[1].resource.type = 'queue';
  });
  assert.equal(schema.length, 2, schema.join('\n'));
  assert.match(
    schema[0],
    /^KafkaUser stocks: \/spec\/authorization\/acls\/0\/operations\/2 must be equal to one of the allowed values \(Read, Write, .*\)$/,
  );
  assert.match(
    schema[1],
    /^KafkaUser stocks: \/spec\/authorization\/acls\/1\/resource\/type must be equal to one of the allowed values \(topic, group, cluster, transactionalId\)$/,
  );
});

test("a KafkaUser whose password is not its pods' Secret, or that KEDA's lag reading needs and lacks, is refused", () => {
  const secret = problemsAfter(
    'KafkaUser',
    'gateway',
    (u) => (u.spec.authentication.password.valueFrom.secretKeyRef.name = 'gateway'),
  );
  assert.deepEqual(secret.schema, []);
  assert.deepEqual(secret.policy, [
    "Deployment gateway: KafkaUser gateway's password is not KAFKA_SASL_PASSWORD of a Secret its pods read",
  ]);
  const missing = problemsAfter('KafkaUser', 'topics', (u, objects) => objects.splice(objects.indexOf(u), 1));
  assert.deepEqual(missing.policy, ['Job topics: no KafkaUser topics']);
  const group = problemsAfter('KafkaUser', 'announcements', (u) => {
    u.spec.authorization.acls = u.spec.authorization.acls.filter(
      (acl) => acl.resource.name !== 'announcements.poller' && acl.resource.name !== 'initial-poll.requested',
    );
  });
  assert.deepEqual(group.policy, [
    'ScaledObject announcements-poller: KafkaUser announcements may not read group announcements.poller',
    'ScaledObject announcements-poller: KafkaUser announcements may not read group announcements.poller',
    'ScaledObject announcements-poller: KafkaUser announcements may not read topic initial-poll.requested',
    'ScaledObject announcements-poller: KafkaUser announcements may not read group announcements.poller',
  ]);
});

test('a planned topic without its KafkaTopic, or a KafkaTopic of no planned topic, is refused', () => {
  const { policy } = problemsAfter('KafkaTopic', 'users.reply', (t) => (t.metadata.name = 'users.replies'));
  assert.deepEqual(policy, [
    'topic users.reply: no KafkaTopic',
    'KafkaTopic users.replies: not in deploy/topics.json',
  ]);
});

test("fewer partitions in deploy/topics.json than a KEDA role's maxReplicaCount are refused, by topic", () => {
  const objects = render('prod');
  const plan = topics.map((t) => (t.name === 'email.deliveries-queued' ? { ...t, partitions: 4 } : t));
  assert.deepEqual(
    policyProblems(objects, contextOf('prod', plan)).filter((p) => p.startsWith('ScaledObject')),
    [
      "ScaledObject email-marketing-sender: trigger email-deliveries-queued: maxReplicaCount 6 exceeds email.deliveries-queued's 4 partitions",
    ],
  );
  const replies = topics.map((t) => (t.name === 'users.reply' ? { ...t, partitions: 2 } : t));
  assert.ok(
    policyProblems(objects, contextOf('prod', replies)).includes(
      'HorizontalPodAutoscaler gateway: maxReplicas 6 exceeds the 2 partitions it consumes',
    ),
  );
});

test("the database Job alone reads the admin's Secret, and each tenant's URL from that tenant's own Secret", () => {
  for (const overlay of ['dev', 'prod']) {
    const objects = render(overlay);
    const job = find(objects, 'Job', 'database').spec.template.spec.containers[0];
    assert.deepEqual(job.command, ['node', 'deploy/local/infra.mjs', 'database']);
    assert.deepEqual(job.envFrom, [{ secretRef: { name: 'irportal-database-admin' } }]);
    // The platform's tenants and variables (database-bootstrap.ts reads exactly these).
    assert.deepEqual(
      job.env,
      databaseTenants(services).map((t) => ({
        name: tenantUrlVariable(t.schema),
        valueFrom: { secretKeyRef: { name: `irportal-${t.name}`, key: 'DATABASE_URL' } },
      })),
    );
    const readers = objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .filter((o) => JSON.stringify(o.spec.template).includes('irportal-database-admin'))
      .map((o) => `${o.kind} ${o.metadata.name}`);
    assert.deepEqual(readers, ['Job database'], overlay);
  }
});

test('a PrometheusRule whose rule lacks expr, or a ServiceMonitor endpoint with an unknown field, is refused', () => {
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'irportal' },
    spec: {
      groups: [
        {
          name: 'irportal',
          rules: [{ alert: 'DlqNotEmpty', expr: 'sum(irp_dlq_depth) > 0', for: '5m' }],
        },
      ],
    },
  };
  const monitor = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'irportal' },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/part-of': 'irportal' } },
      endpoints: [{ port: 'health', path: '/metrics', interval: '30s' }],
    },
  };
  assert.deepEqual(schemaProblems([rule, monitor]), []);
  delete rule.spec.groups[0].rules[0].expr;
  rule.spec.groups[0].rules.push({ alert: 'Late', expr: 'up == 0', for: '5 minutes' });
  monitor.spec.endpoints[0].scrapeEvery = '30s';
  assert.deepEqual(schemaProblems([rule, monitor]), [
    "PrometheusRule irportal: /spec/groups/0/rules/0 must have required property 'expr'",
    'PrometheusRule irportal: /spec/groups/0/rules/1/for must match pattern "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"',
    'ServiceMonitor irportal: /spec/endpoints/0 has unknown field scrapeEvery',
  ]);
});

test('a custom kind in a version its vendored CRD does not serve has no schema', () => {
  const objects = render('prod');
  const topic = find(objects, 'KafkaTopic', 'stock.upserted');
  topic.apiVersion = 'kafka.strimzi.io/v1beta2';
  assert.deepEqual(schemaProblems([topic]), [
    'KafkaTopic stock.upserted: no schema for kafka.strimzi.io/v1beta2 KafkaTopic',
  ]);
});
