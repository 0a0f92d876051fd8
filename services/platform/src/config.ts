import { DEMO_ACCOUNTING_CLIENT, zodIssueLines } from '@irp/proto';
import { DEV_ACTOR_SIGNING_SECRET } from '@irp/proto/signing';
import { z } from 'zod';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import type { KafkaSettings } from './kafka';
import { ServiceManifestEntry } from './manifest';
import type { HandlerRetryPolicy } from './reliability/handler-retry';
import { parseRoles } from './roles';

/** Variables every process reads. Services extend this schema with their own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KAFKA_BROKERS: z
    .string()
    .min(1, 'KAFKA_BROKERS is required (comma-separated host:port list)')
    .transform((s) =>
      s
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
    ),
  /**
   * The broker's SASL/SCRAM-SHA-512 credentials (both or neither): with them, passwords and session tokens
   * cross Kafka only over an authenticated connection. KAFKA_SSL=true adds TLS (KAFKA_SSL_CA_FILE: a PEM
   * CA to trust instead of the system's).
   */
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  KAFKA_SSL: z.enum(['true', 'false']).default('false'),
  KAFKA_SSL_CA_FILE: z.string().min(1).optional(),
  /** Distinguishes processes of one service in logs, metrics and Kafka client ids. */
  INSTANCE_ID: z.string().default(`${process.pid}`),
  /** How long a request waits for its reply before the caller gets SERVICE_UNAVAILABLE. */
  KAFKA_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).max(300_000).default(10_000),
  KAFKA_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** How long the broker may hold an idle consumer's fetch (data ends the wait at once): idle cost vs. how
   * quickly a consumer notices a rebalance or disconnects. */
  KAFKA_FETCH_MAX_WAIT_MS: z.coerce.number().int().min(10).max(5000).default(1000),
  /**
   * The longest wait between two tries of a Kafka operation (kafkajs' `maxRetryTime`), and so how long a
   * consumer that crashed while the broker was away waits before it starts again: the time a process takes
   * to notice a broker that came back. kafkajs' own default, 30 s, kept services deaf for up to half a
   * minute after the broker returned.
   */
  KAFKA_RETRY_MAX_MS: z.coerce.number().int().min(100).max(30_000).default(1000),
  /**
   * The handler reliability policy: how long a handler keeps trying a transient failure (database or broker
   * away) before its message goes to the DLQ, and the bounds of the jittered backoff between tries.
   */
  HANDLER_RETRY_MAX_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  HANDLER_RETRY_FIRST_DELAY_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  HANDLER_RETRY_MAX_DELAY_MS: z.coerce.number().int().min(10).max(300_000).default(5000),
  /**
   * Signs (gateway) and verifies (services) the actor of every request: every process must share it.
   * The development default is refused in production.
   */
  ACTOR_SIGNING_SECRET: z
    .string()
    .min(32, 'ACTOR_SIGNING_SECRET must be at least 32 characters')
    .default(DEV_ACTOR_SIGNING_SECRET),
});

export const databaseConfigSchema = z.object({
  DATABASE_URL: z
    .string()
    .min(1, 'DATABASE_URL is required')
    .refine((s) => /^postgres(ql)?:\/\//.test(s), 'DATABASE_URL must be a postgres:// URL'),
  /** Published outbox rows older than this are deleted (they are kept a while for inspection and replay). */
  OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** How often the outbox pruning job runs (on one instance of the service at a time). */
  OUTBOX_PRUNE_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /**
   * How long a pooled database connection may sit idle before it is closed (pg's default, 10 s). `make test`
   * sets 1 s: its three stacks and the integration suites' processes share one PostgreSQL of 100 connections,
   * and pools each holding the connections of their last burst for 10 s ran it out of slots.
   */
  DATABASE_POOL_IDLE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
});

/**
 * What every service process reads: the base and database variables, its /health port (default from the
 * manifest), the address it listens on, and ROLES (default every role of the service in the manifest).
 */
export function serviceConfigSchema(entry: Pick<ServiceManifestEntry, 'healthPort' | 'roles'>) {
  return baseConfigSchema.merge(databaseConfigSchema).extend({
    HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(entry.healthPort),
    HOST: z.string().default('127.0.0.1'),
    ROLES: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const parsed = parseRoles(value, entry.roles);
        if (parsed.ok) return parsed.roles;
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.problem });
        return z.NEVER;
      }),
  });
}
export type ServiceConfigBase = z.infer<ReturnType<typeof serviceConfigSchema>>;

export class ConfigError extends Error {}

/**
 * Secrets published in this repository (defaults and docker-compose fallbacks): fine on a laptop, but a
 * production process refuses any secret variable set to one of them.
 */
export const KNOWN_DEVELOPMENT_SECRETS: readonly string[] = [
  DEV_ACTOR_SIGNING_SECRET,
  'development-only-secret-do-not-use-in-production!',
  'compose-local-secret-change-me-0123456789abcdef',
  'compose-local-actor-secret-change-me-0123456789abcdef',
  'development-only-unsubscribe-link-secret-do-not-use',
  'compose-local-unsubscribe-secret-change-me-0123456789abcdef',
  // docker-compose's EMAIL_SECRETS_KEY and STOCKS_SECRETS_KEY fallbacks
  'Y29tcG9zZS1sb2NhbC1rZXktY2hhbmdlLW1lLTAxMjM=',
  'Y29tcG9zZS1sb2NhbC1zdG9ja3Mta2V5LWNoYW5nZSE=',
  // the accounting stand-in's demo connection (ACCOUNTING_CLIENT_SECRET's default)
  DEMO_ACCOUNTING_CLIENT.clientSecret,
];

/** Whether a variable holds a secret the known development values are checked against. */
const isSecretVariable = (key: string) => key.endsWith('_SECRET') || key.endsWith('_SECRETS_KEY');

/**
 * The secret variables (`*_SECRET`, `*_SECRETS_KEY`) of a production config that hold a known development
 * secret, as problems.
 */
export function developmentSecretProblems(config: unknown): string[] {
  if (typeof config !== 'object' || config === null) return [];
  const values = config as Record<string, unknown>;
  if (values.NODE_ENV !== 'production') return [];
  return Object.keys(values)
    .filter((key) => isSecretVariable(key) && KNOWN_DEVELOPMENT_SECRETS.includes(values[key] as string))
    .map((key) => `${key}: a development value published in this repository; set your own in production`);
}

/**
 * The Kafka security settings that cannot work, as problems: SASL credentials are a pair (a username alone
 * would connect unauthenticated, a password alone means nothing), and a CA file must be readable and
 * given with KAFKA_SSL=true.
 */
export function kafkaSecurityProblems(config: unknown): string[] {
  if (typeof config !== 'object' || config === null) return [];
  const c = config as Record<string, unknown>;
  const problems: string[] = [];
  if (!c.KAFKA_SASL_USERNAME !== !c.KAFKA_SASL_PASSWORD)
    problems.push(
      `${c.KAFKA_SASL_USERNAME ? 'KAFKA_SASL_PASSWORD' : 'KAFKA_SASL_USERNAME'}: required with ${c.KAFKA_SASL_USERNAME ? 'KAFKA_SASL_USERNAME' : 'KAFKA_SASL_PASSWORD'} (SCRAM-SHA-512 needs both)`,
    );
  if (typeof c.KAFKA_SSL_CA_FILE === 'string') {
    if (c.KAFKA_SSL !== 'true') problems.push('KAFKA_SSL_CA_FILE: set, but KAFKA_SSL is not true');
    else if (!isReadableFile(c.KAFKA_SSL_CA_FILE))
      problems.push(`KAFKA_SSL_CA_FILE: ${c.KAFKA_SSL_CA_FILE} cannot be read`);
  }
  return problems;
}

function isReadableFile(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * A production config's WebAuthn relying party (the users service's passkeys, issue 34) that cannot work or
 * would bind passkeys to the wrong place, as problems: the `localhost` default or an IP address as
 * WEBAUTHN_RP_ID, or an origin that is not https.
 */
export function webAuthnProblems(config: unknown): string[] {
  if (typeof config !== 'object' || config === null) return [];
  const c = config as Record<string, unknown>;
  if (c.NODE_ENV !== 'production' || typeof c.WEBAUTHN_RP_ID !== 'string') return [];
  const problems: string[] = [];
  if (c.WEBAUTHN_RP_ID === 'localhost' || /^[\d.]+$|:/.test(c.WEBAUTHN_RP_ID))
    problems.push(
      'WEBAUTHN_RP_ID: the public host name in production (passkeys are bound to it; never an IP address)',
    );
  if (
    typeof c.WEBAUTHN_ORIGINS === 'string' &&
    c.WEBAUTHN_ORIGINS.split(',').some((o) => !o.trim().startsWith('https://'))
  )
    problems.push('WEBAUTHN_ORIGINS: https origins only in production');
  return problems;
}

/**
 * Validates the environment against a schema once, at boot, and fails with every problem listed.
 */
export function loadConfig<S extends z.ZodTypeAny>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const parsed = schema.safeParse(env);
  const problems = parsed.success
    ? [
        ...developmentSecretProblems(parsed.data),
        ...kafkaSecurityProblems(parsed.data),
        ...webAuthnProblems(parsed.data),
      ]
    : zodIssueLines(parsed.error, '(env)');
  if (problems.length)
    throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  return parsed.data as z.infer<S>;
}

/** The handler retry policy of a process, from its config. */
export function handlerRetryPolicyOf(config: z.infer<typeof baseConfigSchema>): HandlerRetryPolicy {
  return {
    maxMs: config.HANDLER_RETRY_MAX_MS,
    firstDelayMs: config.HANDLER_RETRY_FIRST_DELAY_MS,
    maxDelayMs: config.HANDLER_RETRY_MAX_DELAY_MS,
  };
}

/** The Kafka settings of a process, from its validated config. */
export function kafkaSettingsOf(config: z.infer<typeof baseConfigSchema>, service: string): KafkaSettings {
  const problems = kafkaSecurityProblems(config);
  if (problems.length)
    throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  return {
    sasl: config.KAFKA_SASL_USERNAME
      ? {
          mechanism: 'scram-sha-512',
          username: config.KAFKA_SASL_USERNAME,
          password: config.KAFKA_SASL_PASSWORD!,
        }
      : undefined,
    ssl:
      config.KAFKA_SSL === 'true'
        ? config.KAFKA_SSL_CA_FILE
          ? { ca: [readFileSync(config.KAFKA_SSL_CA_FILE, 'utf8')] }
          : true
        : undefined,
    brokers: config.KAFKA_BROKERS,
    service,
    instanceId: config.INSTANCE_ID,
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatIntervalMs: config.KAFKA_HEARTBEAT_INTERVAL_MS,
    fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
    retryMaxMs: config.KAFKA_RETRY_MAX_MS,
  };
}
