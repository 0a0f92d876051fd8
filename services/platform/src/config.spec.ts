import fs from 'node:fs';
import { DEV_ACTOR_SIGNING_SECRET } from '@irp/proto/signing';
import { z } from 'zod';
import {
  baseConfigSchema,
  ConfigError,
  databaseConfigSchema,
  kafkaSettingsOf,
  loadConfig,
  serviceConfigSchema,
  webAuthnProblems,
} from './config';

describe('loadConfig', () => {
  const schema = baseConfigSchema.merge(databaseConfigSchema);
  it('parses and defaults', () => {
    const c = loadConfig(schema, { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' });
    expect(c.KAFKA_REQUEST_TIMEOUT_MS).toBe(4000);
    expect(c.NODE_ENV).toBe('development');
  });
  it('caps the wait between Kafka retries at KAFKA_RETRY_MAX_MS (1 s unless set), handed to the clients', () => {
    const env = { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' };
    expect(kafkaSettingsOf(loadConfig(schema, env), 'probe').retryMaxMs).toBe(1000);
    expect(
      kafkaSettingsOf(loadConfig(schema, { ...env, KAFKA_RETRY_MAX_MS: '2500' }), 'probe').retryMaxMs,
    ).toBe(2500);
    expect(() => loadConfig(schema, { ...env, KAFKA_RETRY_MAX_MS: '10' })).toThrow('KAFKA_RETRY_MAX_MS');
  });
  it('fails at boot listing every bad variable', () => {
    let error: unknown;
    try {
      loadConfig(schema.extend({ PORT: z.coerce.number().int() }), {
        DATABASE_URL: 'mysql://x',
        PORT: 'x',
        KAFKA_SESSION_TIMEOUT_MS: '10',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    expect(text).toContain('KAFKA_BROKERS');
    expect(text).toContain('DATABASE_URL: DATABASE_URL must be a postgres:// URL');
    expect(text).toContain('PORT');
    expect(text).toContain('KAFKA_SESSION_TIMEOUT_MS');
  });
});

describe('development secrets', () => {
  const env = { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' };
  const schema = baseConfigSchema.merge(databaseConfigSchema);
  it('every service refuses the default ACTOR_SIGNING_SECRET in production, and takes its own', () => {
    expect(() => loadConfig(schema, { ...env, NODE_ENV: 'production' })).toThrow(
      'ACTOR_SIGNING_SECRET: a development value published in this repository; set your own in production',
    );
    expect(
      loadConfig(schema, { ...env, NODE_ENV: 'production', ACTOR_SIGNING_SECRET: 'k'.repeat(40) })
        .ACTOR_SIGNING_SECRET,
    ).toBe('k'.repeat(40));
    expect(loadConfig(schema, env).ACTOR_SIGNING_SECRET).toBe(DEV_ACTOR_SIGNING_SECRET);
  });
  it("refuses docker-compose's published EMAIL_SECRETS_KEY fallback and any secret variable set to a known value", () => {
    const extended = schema.extend({ EMAIL_SECRETS_KEY: z.string().optional(), OTHER_SECRET: z.string() });
    const production = { ...env, NODE_ENV: 'production', ACTOR_SIGNING_SECRET: 'k'.repeat(40) };
    expect(() =>
      loadConfig(extended, {
        ...production,
        EMAIL_SECRETS_KEY: 'Y29tcG9zZS1sb2NhbC1rZXktY2hhbmdlLW1lLTAxMjM=',
        OTHER_SECRET: 'development-only-unsubscribe-link-secret-do-not-use',
      }),
    ).toThrow(
      /EMAIL_SECRETS_KEY: a development value published in this repository[^]*OTHER_SECRET: a development value/,
    );
    // Outside production the published values are fine (make up, tests).
    expect(
      loadConfig(extended, {
        ...env,
        EMAIL_SECRETS_KEY: 'Y29tcG9zZS1sb2NhbC1rZXktY2hhbmdlLW1lLTAxMjM=',
        OTHER_SECRET: 'x',
      }).EMAIL_SECRETS_KEY,
    ).toBe('Y29tcG9zZS1sb2NhbC1rZXktY2hhbmdlLW1lLTAxMjM=');
  });
  it('refuses a short secret', () => {
    expect(() => loadConfig(schema, { ...env, ACTOR_SIGNING_SECRET: 'short' })).toThrow(
      'ACTOR_SIGNING_SECRET must be at least 32 characters',
    );
  });
});

describe('serviceConfigSchema', () => {
  const env = { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' };
  const schema = serviceConfigSchema({ healthPort: 3199, roles: ['api', 'scheduler', 'poller'] });

  it('defaults the health port from the manifest, every role, and a 7-day outbox retention', () => {
    const c = loadConfig(schema, env);
    expect(c.HEALTH_PORT).toBe(3199);
    expect(c.ROLES).toEqual(['api', 'scheduler', 'poller']);
    expect(c.OUTBOX_RETENTION_DAYS).toBe(7);
  });

  it('reads ROLES as a comma list, in the manifest order', () => {
    expect(loadConfig(schema, { ...env, ROLES: ' poller , api' }).ROLES).toEqual(['api', 'poller']);
  });

  it('refuses an unknown role, naming the allowed ones', () => {
    expect(() => loadConfig(schema, { ...env, ROLES: 'api,sender' })).toThrow(
      "ROLES: unknown role sender; this service's roles are api, scheduler, poller",
    );
  });

  it('refuses an outbox retention that is not a whole number of days from 1', () => {
    expect(() => loadConfig(schema, { ...env, OUTBOX_RETENTION_DAYS: '0' })).toThrow(/OUTBOX_RETENTION_DAYS/);
    expect(() => loadConfig(schema, { ...env, OUTBOX_RETENTION_DAYS: 'week' })).toThrow(
      /OUTBOX_RETENTION_DAYS/,
    );
    expect(loadConfig(schema, { ...env, OUTBOX_RETENTION_DAYS: '30' }).OUTBOX_RETENTION_DAYS).toBe(30);
  });
});

describe('Kafka security settings', () => {
  const env = { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' };
  const schema = baseConfigSchema.merge(databaseConfigSchema);
  const problemsOf = (extra: Record<string, string>) => {
    try {
      loadConfig(schema, { ...env, ...extra });
      return '';
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
  };

  it('a SASL username without its password (or the reverse) stops the start, naming the missing one', () => {
    expect(problemsOf({ KAFKA_SASL_USERNAME: 'irportal' })).toContain(
      'KAFKA_SASL_PASSWORD: required with KAFKA_SASL_USERNAME (SCRAM-SHA-512 needs both)',
    );
    expect(problemsOf({ KAFKA_SASL_PASSWORD: 'secret' })).toContain(
      'KAFKA_SASL_USERNAME: required with KAFKA_SASL_PASSWORD',
    );
    expect(problemsOf({ KAFKA_SASL_USERNAME: 'irportal', KAFKA_SASL_PASSWORD: 'secret' })).toBe('');
  });

  it('a CA file must be readable, and goes with KAFKA_SSL=true', () => {
    expect(problemsOf({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' })).toContain(
      'KAFKA_SSL_CA_FILE: /nonexistent/ca.pem cannot be read',
    );
    expect(problemsOf({ KAFKA_SSL_CA_FILE: __filename })).toContain(
      'KAFKA_SSL_CA_FILE: set, but KAFKA_SSL is not true',
    );
    expect(problemsOf({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: __filename })).toBe('');
  });

  it('kafkaSettingsOf gives kafkajs SCRAM-SHA-512 and TLS with the CA read from the file', () => {
    const config = loadConfig(schema, {
      ...env,
      KAFKA_SASL_USERNAME: 'irportal',
      KAFKA_SASL_PASSWORD: 'secret',
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: __filename,
    });
    const settings = kafkaSettingsOf(config, 'probe');
    expect(settings.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'irportal', password: 'secret' });
    expect(settings.ssl).toEqual({ ca: [fs.readFileSync(__filename, 'utf8')] });
    expect(kafkaSettingsOf(loadConfig(schema, env), 'probe')).toMatchObject({
      sasl: undefined,
      ssl: undefined,
    });
  });
});

describe('webAuthnProblems (passkeys, issue 34)', () => {
  it('refuses the localhost default, an IP address and an http origin in production, nothing elsewhere', () => {
    const prod = {
      NODE_ENV: 'production',
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: 'http://localhost:3000',
    };
    expect(webAuthnProblems(prod)).toEqual([
      'WEBAUTHN_RP_ID: the public host name in production (passkeys are bound to it; never an IP address)',
      'WEBAUTHN_ORIGINS: https origins only in production',
    ]);
    expect(webAuthnProblems({ ...prod, WEBAUTHN_RP_ID: '10.0.0.7' })).toHaveLength(2);
    expect(
      webAuthnProblems({
        ...prod,
        WEBAUTHN_RP_ID: 'ir.example.com',
        WEBAUTHN_ORIGINS: 'https://ir.example.com',
      }),
    ).toEqual([]);
    expect(webAuthnProblems({ ...prod, NODE_ENV: 'development' })).toEqual([]);
    // A process without passkeys (every other service) is not asked.
    expect(webAuthnProblems({ NODE_ENV: 'production' })).toEqual([]);
  });
});
