#!/usr/bin/env node
// Writes docker-compose.yml from services/manifest.json: the infrastructure (kafka, postgres, maildev, the
// one-shot topics job) as written below, then one compose service per manifest service (built from
// deploy/Dockerfile with --build-arg SERVICE=<name>, HEALTH_PORT and ROLES from the manifest) and the
// gateway. The file is generated, never edited by hand; the infra test runs the check, so a manifest
// edited without regenerating fails `make test`.
//
//   node deploy/compose.mjs            write docker-compose.yml
//   node deploy/compose.mjs --check    exit 1 when the committed file is not what the manifest gives
//   [--manifest FILE] [--out FILE]     other paths (the test uses them)

import path from 'node:path';
import { generatedHeader, generatorCli, isMain, ROOT } from './generated.mjs';

export const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const COMMAND = 'node deploy/compose.mjs';

const HEADER = `${generatedHeader(COMMAND)}#
# IR Portal with Docker. Two ways to use it:
#   - infrastructure only (what \`make up\` / deploy/local/infra.mjs does when a Docker engine answers):
#       docker compose up -d kafka postgres
#   - the whole system: docker compose up -d --build   (web app + API on http://127.0.0.1:3000,
#       sent mail on http://127.0.0.1:1080)
# The environment variable names are the ones local mode uses (deploy/local/README.md): KAFKA_BROKERS,
# DATABASE_URL, PORT, HEALTH_PORT, ROLES, NODE_ENV, SESSION_SECRET, LOG_LEVEL, SMTP_URL, WEB_DIST.
# Host ports bind to 127.0.0.1 only; KAFKA_PORT / PG_PORT / GATEWAY_PORT move them. <NAME>_ROLES (e.g.
# STOCKS_ROLES=api) narrows the roles a service's container runs; the default is every role of the manifest.
name: irportal

x-node-env: &node-env
  NODE_ENV: production
  LOG_LEVEL: \${LOG_LEVEL:-info}
  # Inside the compose network the broker is kafka:19092 (its PLAINTEXT listener); the host uses 127.0.0.1:9092.
  KAFKA_BROKERS: kafka:19092
  KAFKAJS_NO_PARTITIONER_WARNING: '1'
  SMTP_URL: smtp://maildev:1025
  # maildev offers no TLS; with a real mail server remove this (TLS is then required: SMTP_REQUIRE_TLS).
  SMTP_REQUIRE_TLS: 'false'
  # Encrypts the email-marketing provider keys at rest: 32 bytes, base64. Set your own (openssl rand -base64 32).
  EMAIL_SECRETS_KEY: \${EMAIL_SECRETS_KEY:-Y29tcG9zZS1sb2NhbC1rZXktY2hhbmdlLW1lLTAxMjM=}
  # Encrypts the email-marketing API keys given on the order form at rest: 32 bytes, base64. Set your own.
  STOCKS_SECRETS_KEY: \${STOCKS_SECRETS_KEY:-Y29tcG9zZS1sb2NhbC1zdG9ja3Mta2V5LWNoYW5nZSE=}
  # The gateway signs each request's actor with it and every service verifies it: 32+ characters, the same
  # for every process. Set your own: production refuses this published fallback (the processes do not start).
  ACTOR_SIGNING_SECRET: \${ACTOR_SIGNING_SECRET:-compose-local-actor-secret-change-me-0123456789abcdef}
  # Signs the unsubscribe links in the mails (32+ characters; changing it breaks the links already sent).
  # Set your own: production refuses this published fallback, as it does the two above.
  UNSUBSCRIBE_LINK_SECRET: \${UNSUBSCRIBE_LINK_SECRET:-compose-local-unsubscribe-secret-change-me-0123456789abcdef}
`;

const INFRASTRUCTURE = `services:
  kafka:
    image: apache/kafka:3.9.1
    # Single node, KRaft (broker + controller in one process), replication factor 1 everywhere.
    environment:
      CLUSTER_ID: QEmMSELDmWRUTuwqXKrOAw
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@localhost:9093
      # PLAINTEXT: other containers (kafka:19092). HOST: the host machine (127.0.0.1:KAFKA_PORT).
      KAFKA_LISTENERS: PLAINTEXT://:19092,HOST://:9092,CONTROLLER://:9093
      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:19092,HOST://127.0.0.1:\${KAFKA_PORT:-9092}
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,HOST:PLAINTEXT
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_INTER_BROKER_LISTENER_NAME: PLAINTEXT
      KAFKA_LOG_DIRS: /var/lib/kafka/data
      KAFKA_NUM_PARTITIONS: 3
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false'
      KAFKA_MESSAGE_MAX_BYTES: 8388608
      KAFKA_DEFAULT_REPLICATION_FACTOR: 1
      KAFKA_MIN_INSYNC_REPLICAS: 1
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: 10
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: 1
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: 0
      KAFKA_HEAP_OPTS: -Xms256m -Xmx512m
    ports:
      - 127.0.0.1:\${KAFKA_PORT:-9092}:9092
    volumes:
      - kafka-data:/var/lib/kafka/data
    healthcheck:
      test:
        [
          'CMD-SHELL',
          '/opt/kafka/bin/kafka-broker-api-versions.sh --bootstrap-server kafka:19092 >/dev/null 2>&1',
        ]
      interval: 5s
      timeout: 10s
      start_period: 20s
      retries: 12

  postgres:
    image: postgres:16-bookworm
    environment:
      POSTGRES_USER: postgres
      POSTGRES_DB: irportal
      # Local development only, like local mode: no password on 127.0.0.1.
      POSTGRES_HOST_AUTH_METHOD: trust
    ports:
      - 127.0.0.1:\${PG_PORT:-5432}:5432
    volumes:
      - pg-data:/var/lib/postgresql/data
    healthcheck:
      test: ['CMD-SHELL', 'pg_isready -U postgres -d irportal']
      interval: 3s
      timeout: 3s
      start_period: 10s
      retries: 20

  maildev:
    # Receives every mail the system sends (SMTP 1025) and shows it in a browser (1080).
    image: maildev/maildev:2.2.1
    environment:
      MAILDEV_SMTP_PORT: 1025
      MAILDEV_WEB_PORT: 1080
    ports:
      - 127.0.0.1:1080:1080
      - 127.0.0.1:1025:1025

  topics:
    # One-shot: creates every topic of the proto/ catalogue (request, <service>.reply, event, .dlq) with the
    # partitions, retention and cleanup policy of deploy/topics.json, then exits.
    image: irportal/gateway:local
    build:
      context: .
      dockerfile: deploy/Dockerfile
      target: gateway
    command: ['node', 'deploy/local/infra.mjs', 'topics']
    environment:
      KAFKA_BROKERS: kafka:19092
    depends_on:
      kafka:
        condition: service_healthy
    restart: 'no'
`;

// The platform's tenants of the database and their roles (services/platform/src/database-roles.ts, which
// the infra suite checks this file against).
const databaseTenants = (services) => [...services, { name: 'gateway', schema: 'gateway' }];
const tenantRoleOf = (schema) => `irp_${schema}`;
const tenantUrlVariable = (schema) => `DATABASE_URL_${schema.toUpperCase()}`;

/**
 * A tenant's DATABASE_URL here: its own role (docs/adr/0011), without a password, as the compose server
 * trusts its network like local mode's 127.0.0.1.
 */
const databaseUrlOf = (schema) => `postgres://${tenantRoleOf(schema)}@postgres:5432/irportal`;

/** One-shot: each service's and the gateway's role and the schema it owns, as the admin (postgres). */
function databaseBootstrap(services) {
  const urls = databaseTenants(services)
    .map((t) => `\n      ${tenantUrlVariable(t.schema)}: ${databaseUrlOf(t.schema)}`)
    .join('');
  return `
  database:
    # One-shot: each service's (and the gateway's) PostgreSQL role and the schema it owns; each connects as
    # its role and can use nothing else (docs/adr/0011). Then exits.
    image: irportal/gateway:local
    build:
      context: .
      dockerfile: deploy/Dockerfile
      target: gateway
    command: ['node', 'deploy/local/infra.mjs', 'database']
    environment:
      DATABASE_ADMIN_URL: postgres://postgres@postgres:5432/irportal${urls}
    depends_on:
      postgres:
        condition: service_healthy
    restart: 'no'
`;
}

/** `email-marketing` -> `EMAIL_MARKETING`: the prefix of a service's compose variables. */
const envPrefix = (name) => name.toUpperCase().replace(/-/g, '_');

/**
 * Variables one service needs passed through from the host. The announcements service runs on a real feed
 * in production (it refuses to start without one rather than make announcements up): set ASX_BASE_URL and
 * ASX2_BASE_URL before \`docker compose up\` of the whole system.
 */
const PASSED_THROUGH = {
  announcements: ['ASX_BASE_URL', 'ASX2_BASE_URL'],
};

/**
 * The services that receive secrets sealed on the bus (issue 34), by their variables' prefix: each holds its
 * own private key, the gateway the public halves. No published fallback: `npm run seal-keys` prints a pair.
 */
const SEAL_RECIPIENTS = { users: 'USERS', 'email-marketing': 'EMAIL_MARKETING' };
const required = (v) => `\${${v}:?set ${v} (npm run seal-keys prints a key pair)}`;

/**
 * The email-marketing service signs every mail with DKIM (issue 36) and production has no published key to
 * fall back on: `npm run dkim-key -- <domain>` prints a key, its selector and the DNS record to publish.
 */
const DKIM = [
  ...['DKIM_PRIVATE_KEY', 'DKIM_SELECTOR'].map(
    (v) => `\n      ${v}: \${${v}:?set ${v} (npm run dkim-key -- <the domain of MAIL_FROM> prints a key)}`,
  ),
  '\n      DKIM_DOMAIN: ${DKIM_DOMAIN:-}',
  // The bounce listener (role bounces): the MX of BOUNCE_DOMAIN (MAIL_FROM's domain by default).
  '\n      BOUNCE_DOMAIN: ${BOUNCE_DOMAIN:-}',
];

/** The ports a service's roles serve beyond health (manifest `listeners`): set, and published on the host. */
const listenerEnv = (s) => (s.listeners ?? []).map((l) => `\n      ${l.portEnv}: ${l.port}`).join('');
const listenerPorts = (s) =>
  (s.listeners ?? [])
    .map(
      (l, i) => `${i === 0 ? '\n    ports:' : ''}\n      - 127.0.0.1:\${${l.portEnv}:-${l.port}}:${l.port}`,
    )
    .join('');

function appService(s) {
  const sealed = SEAL_RECIPIENTS[s.name]
    ? [`\n      SEAL_PRIVATE_KEY: ${required(`${SEAL_RECIPIENTS[s.name]}_SEAL_PRIVATE_KEY`)}`]
    : [];
  if (s.name === 'email-marketing') sealed.push(...DKIM);
  const passed = [...(PASSED_THROUGH[s.name] ?? []).map((v) => `\n      ${v}: \${${v}:-}`), ...sealed].join(
    '',
  );
  return `
  ${s.name}:
    image: irportal/${s.name}:local
    build:
      context: .
      dockerfile: deploy/Dockerfile
      target: service
      args:
        SERVICE: ${s.name}
    environment:
      <<: *node-env
      DATABASE_URL: ${databaseUrlOf(s.schema)}
      HEALTH_PORT: ${s.healthPort}
      HOST: 0.0.0.0
      ROLES: \${${envPrefix(s.name)}_ROLES:-${s.roles.join(',')}}${passed}${listenerEnv(s)}${listenerPorts(s)}
    depends_on:
      topics:
        condition: service_completed_successfully
      database:
        condition: service_completed_successfully
    restart: unless-stopped
`;
}

function gateway(services) {
  const waits = services.map((s) => `      ${s.name}:\n        condition: service_healthy\n`).join('');
  return `
  gateway:
    image: irportal/gateway:local
    build:
      context: .
      dockerfile: deploy/Dockerfile
      target: gateway
    environment:
      <<: *node-env
      # The API, the web app and /health/live; /health and /metrics on OPS_PORT, inside the compose network only.
      PORT: 3000
      HOST: 0.0.0.0
      OPS_PORT: 3001
      OPS_HOST: 0.0.0.0
      # The rate limits' counters, shared by every gateway instance (schema gateway, its role's).
      DATABASE_URL: ${databaseUrlOf('gateway')}
      # Required in production: 32+ characters, the same for every gateway instance. Set your own: production
      # refuses this published fallback (the gateway does not start).
      SESSION_SECRET: \${SESSION_SECRET:-compose-local-secret-change-me-0123456789abcdef}
      # Plain HTTP on 127.0.0.1 here; behind TLS set COOKIE_SECURE=true (the production default).
      COOKIE_SECURE: \${COOKIE_SECURE:-false}
      # Required in production: whose X-Forwarded-For to believe. Browsers reach this port directly, so none;
      # behind a proxy set its hops or addresses (docs/operations.md, "The gateway's edge").
      TRUST_PROXY: \${TRUST_PROXY:-false}
      # The public halves of the users' and email-marketing's seal keys (passwords and provider keys cross
      # the bus sealed for the one service that uses them).
${Object.values(SEAL_RECIPIENTS)
  .map((p) => `      ${p}_SEAL_PUBLIC_KEY: ${required(`${p}_SEAL_PUBLIC_KEY`)}`)
  .join('\n')}
      WEB_DIST: /app/web/dist
    ports:
      - 127.0.0.1:\${GATEWAY_PORT:-3000}:3000
    depends_on:
      topics:
        condition: service_completed_successfully
      database:
        condition: service_completed_successfully
${waits}    restart: unless-stopped
`;
}

/** The whole docker-compose.yml for these manifest services. */
export function composeFile(services) {
  const volumes = `
volumes:
  kafka-data:
  pg-data:
`;
  return (
    HEADER +
    '\n' +
    INFRASTRUCTURE +
    databaseBootstrap(services) +
    services.map(appService).join('') +
    gateway(services) +
    volumes
  );
}

if (isMain(import.meta.url)) {
  process.exitCode = generatorCli(
    { tag: 'compose', command: COMMAND, defaultOut: COMPOSE_FILE, render: composeFile },
    process.argv.slice(2),
  );
}
