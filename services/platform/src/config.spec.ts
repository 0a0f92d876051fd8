import { DEV_ACTOR_SIGNING_SECRET } from '@irp/proto/signing';
import { z } from 'zod';
import {
  baseConfigSchema,
  ConfigError,
  databaseConfigSchema,
  loadConfig,
  serviceConfigSchema,
} from './config';

describe('loadConfig', () => {
  const schema = baseConfigSchema.merge(databaseConfigSchema);
  it('parses and defaults', () => {
    const c = loadConfig(schema, { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' });
    expect(c.KAFKA_REQUEST_TIMEOUT_MS).toBe(4000);
    expect(c.NODE_ENV).toBe('development');
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
