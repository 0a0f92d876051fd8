// `infra.mjs status`: what the env file says and whether each part answers now (exit 1 when one does not).

import fs from 'node:fs';
import { readEnvFile, resolveEnvFile } from './env-file.mjs';
import { kafkaPaths } from './kafka-files.mjs';
import { listTopicsOnce } from './kafka.mjs';
import { pgAdminUrl, probePostgres, redact } from './postgres.mjs';
import { infraDir, intEnv, isAlive, makeLog, readPidFile, rssKb, splitList } from './shared.mjs';

/** What runs now: the env file's values and whether each part answers. */
export async function status({ envFile, log } = {}) {
  const say = makeLog(log);
  const file = resolveEnvFile(envFile);
  const env = readEnvFile(file);
  const brokers = process.env.KAFKA_BROKERS || env.KAFKA_BROKERS || `127.0.0.1:${intEnv('KAFKA_PORT', 9092)}`;
  const databaseUrl = process.env.DATABASE_URL || env.DATABASE_URL || pgAdminUrl(intEnv('PG_PORT', 5432));
  const result = {
    envFile: fs.existsSync(file) ? file : null,
    started: splitList(env.INFRA_STARTED),
    kafka: {},
    postgres: {},
  };
  say(
    `env       ${result.envFile ? `${file}: INFRA_STARTED=${env.INFRA_STARTED ?? ''}` : `${file} does not exist`}`,
  );
  try {
    const topicsNow = await listTopicsOnce(brokers);
    const pid = Number(env.KAFKA_PID) || readPidFile(kafkaPaths(env.INFRA_DIR || infraDir()).pid);
    const rss = pid && isAlive(pid) ? rssKb(pid) : null;
    result.kafka = {
      brokers,
      up: true,
      topics: topicsNow.filter((t) => !t.startsWith('__')).length,
      pid: rss ? pid : null,
      rssKb: rss,
    };
    say(
      `kafka     ${brokers} answers, ${result.kafka.topics} topics${rss ? `, pid ${pid}, RSS ${Math.round(rss / 1024)} MB` : ''}`,
    );
  } catch (e) {
    result.kafka = { brokers, up: false, error: e.message };
    say(`kafka     ${brokers} does not answer (${e.message})`);
  }
  try {
    const s = await probePostgres(databaseUrl);
    result.postgres = { url: databaseUrl, up: s === 'ok' };
    say(`postgres  ${redact(databaseUrl)} ${s === 'ok' ? 'answers' : 'does not answer'}`);
  } catch (e) {
    result.postgres = { url: databaseUrl, up: false, error: e.message };
    say(`postgres  ${redact(databaseUrl)} error: ${e.message}`);
  }
  return result;
}
