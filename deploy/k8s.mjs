#!/usr/bin/env node
// Writes deploy/k8s/irportal.yaml (not committed: it is made on demand, so adding a service touches no
// generated file but docker-compose.yml) from services/manifest.json: an example of IR Portal on Kubernetes where
// each role of each service is a Deployment of its own (`<service>-<role>`, ROLES=<role>), so a role scales
// by itself (`kubectl scale deployment/announcements-poller --replicas=3`) without starting more of the
// others; plus the gateway (Deployment and Service) and the topics Job. Kafka and PostgreSQL are not in it:
// the pods read KAFKA_BROKERS, DATABASE_URL, SESSION_SECRET, SMTP_URL, EMAIL_SECRETS_KEY, ACTOR_SIGNING_SECRET
// and UNSUBSCRIBE_LINK_SECRET from the Secret
// `irportal-env`.
//
//   node deploy/k8s.mjs            write deploy/k8s/irportal.yaml
//   node deploy/k8s.mjs --check    exit 1 when the written file is not what the manifest gives
//   [--manifest FILE] [--out FILE]     other paths

import path from 'node:path';
import { generatedHeader, generatorCli, isMain, ROOT } from './generated.mjs';

export const K8S_FILE = path.join(ROOT, 'deploy', 'k8s', 'irportal.yaml');
const COMMAND = 'node deploy/k8s.mjs';

/** Replicas a role starts with: api serves requests (two for a rolling update), the rest one each. */
const replicasOf = (role) => (role === 'api' ? 2 : 1);
const GATEWAY_REPLICAS = 2;

const HEADER = `${generatedHeader(COMMAND)}#
# An example, not a production chart: images are the ones deploy/Dockerfile builds (push them to your
# registry and change \`image:\`), and Kafka and PostgreSQL run elsewhere. Before applying:
#   kubectl create secret generic irportal-env --from-literal=KAFKA_BROKERS=kafka:9092 \\
#     --from-literal=DATABASE_URL=postgres://user:password@postgres:5432/irportal \\
#     --from-literal=SESSION_SECRET=<32+ characters> --from-literal=SMTP_URL=smtp://mail:25 \\
#     --from-literal=EMAIL_SECRETS_KEY=$(openssl rand -base64 32) \\
#     --from-literal=ACTOR_SIGNING_SECRET=$(openssl rand -base64 32) \\
#     --from-literal=UNSUBSCRIBE_LINK_SECRET=$(openssl rand -base64 32)
#   kubectl apply -f deploy/k8s/irportal.yaml
# Each role of a service is its own Deployment with ROLES=<role>: scale one role without the others, e.g.
#   kubectl scale deployment/stocks-api --replicas=4
# Consumers of one role share their topics' partitions, so more replicas than partitions (KAFKA_PARTITIONS
# of the topics Job) stay idle; GATEWAY_INSTANCES must be at least the gateway's replicas.
`;

const labels = (name, component, indent) =>
  [
    `app.kubernetes.io/name: ${name}`,
    `app.kubernetes.io/component: ${component}`,
    'app.kubernetes.io/part-of: irportal',
  ]
    .map((l) => `${' '.repeat(indent)}${l}`)
    .join('\n');

const envFrom = `          envFrom:
            - secretRef:
                name: irportal-env`;

function roleDeployment(s, role) {
  const name = `${s.name}-${role}`;
  return `---
# ${s.name}, role ${role}: only the handlers and consumers of this role run here.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
${labels(s.name, role, 4)}
spec:
  replicas: ${replicasOf(role)}
  selector:
    matchLabels:
${labels(s.name, role, 6)}
  template:
    metadata:
      labels:
${labels(s.name, role, 8)}
    spec:
      containers:
        - name: ${s.name}
          image: irportal/${s.name}:local
          env:
            - name: ROLES
              value: ${role}
            - name: HEALTH_PORT
              value: '${s.healthPort}'
            - name: HOST
              value: 0.0.0.0
            - name: NODE_ENV
              value: production
${envFrom}
          ports:
            - name: health
              containerPort: ${s.healthPort}
          readinessProbe:
            httpGet:
              path: /health
              port: health
            periodSeconds: 10
          livenessProbe:
            tcpSocket:
              port: health
            initialDelaySeconds: 30
            periodSeconds: 20
`;
}

const gateway = `---
# The gateway: the HTTP API and the web app on port 3000 (/health/live too); /health and /metrics on 3001
# (OPS_PORT), which the Service does not expose: for the probes and a metrics scraper inside the cluster.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gateway
  labels:
${labels('gateway', 'api', 4)}
spec:
  replicas: ${GATEWAY_REPLICAS}
  selector:
    matchLabels:
${labels('gateway', 'api', 6)}
  template:
    metadata:
      labels:
${labels('gateway', 'api', 8)}
    spec:
      containers:
        - name: gateway
          image: irportal/gateway:local
          env:
            - name: PORT
              value: '3000'
            - name: HOST
              value: 0.0.0.0
            - name: NODE_ENV
              value: production
            - name: OPS_PORT
              value: '3001'
            - name: OPS_HOST
              value: 0.0.0.0
${envFrom}
          ports:
            - name: http
              containerPort: 3000
            - name: ops
              containerPort: 3001
          readinessProbe:
            httpGet:
              path: /health
              port: ops
            periodSeconds: 10
          livenessProbe:
            httpGet:
              path: /health/live
              port: http
            initialDelaySeconds: 30
            periodSeconds: 20
---
apiVersion: v1
kind: Service
metadata:
  name: gateway
  labels:
${labels('gateway', 'api', 4)}
spec:
  selector:
${labels('gateway', 'api', 4)}
  ports:
    - name: http
      port: 80
      targetPort: http
---
# One-shot: creates every topic of the proto/ catalogue (request, .reply, event, .dlq), then exits.
apiVersion: batch/v1
kind: Job
metadata:
  name: topics
  labels:
${labels('topics', 'job', 4)}
spec:
  backoffLimit: 10
  template:
    spec:
      restartPolicy: OnFailure
      containers:
        - name: topics
          image: irportal/gateway:local
          command: ['node', 'deploy/local/infra.mjs', 'topics']
          env:
            - name: KAFKA_PARTITIONS
              value: '3'
            - name: GATEWAY_INSTANCES
              value: '${Math.max(4, GATEWAY_REPLICAS)}'
${envFrom}
`;

/** The whole deploy/k8s/irportal.yaml for these manifest services. */
export function k8sFile(services) {
  const roles = services.flatMap((s) => s.roles.map((role) => roleDeployment(s, role)));
  return HEADER + roles.join('') + gateway;
}

if (isMain(import.meta.url)) {
  process.exitCode = generatorCli(
    { tag: 'k8s', command: COMMAND, defaultOut: K8S_FILE, render: k8sFile },
    process.argv.slice(2),
  );
}
