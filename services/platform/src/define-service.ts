import 'reflect-metadata';
import { pingTopicOf } from '@irp/proto';
import {
  Controller,
  DynamicModule,
  INestApplication,
  INestApplicationContext,
  Module,
  ModuleMetadata,
  Provider,
  Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { z } from 'zod';
import { runMain } from './bootstrap';
import {
  handlerRetryPolicyOf,
  kafkaSettingsOf,
  loadConfig,
  ServiceConfigBase,
  serviceConfigSchema,
} from './config';
import { DatabaseOptions } from './database';
import { kafkaServerOptions } from './kafka';
import { createLogger, PinoNestLogger } from './logging';
import { manifestEntry, ServiceManifestEntry } from './manifest';
import { LocalTopicSchemas } from './messages';
import { PlatformModule } from './platform.module';
import { RoleKafkaServer, topicsOf } from './role-server';
import { API_ROLE, consumerGroupOf } from './roles';

const log = createLogger('service');

/** What one role of a service binds, in the processes whose ROLES include it. */
export interface RoleDefinition {
  /** Controllers of @MessagePattern / @EventPattern handlers, consumed in the role's consumer group. */
  handlers?: Type<unknown>[];
  /** Providers only this role needs (e.g. a scheduler that registers a singleton job). */
  providers?: Provider[];
}

export interface ServiceDefinition<E extends z.ZodRawShape> {
  /** The service's name in services/manifest.json (health port, schema and roles come from there). */
  name: string;
  /** The service's own variables, added to the platform's (serviceConfigSchema). */
  config?: z.ZodObject<E>;
  /**
   * Checks across variables, the platform's included (what production refuses): issues added to `ctx` are
   * listed with every other problem when the process refuses to start.
   */
  refineConfig?: (config: ServiceConfig<E>, ctx: z.RefinementCtx) => void;
  /**
   * TypeORM entities and the committed migrations of the service's schema (the outbox is added); or a
   * function of the validated config, for a migration that needs a setting (a key to encrypt rows with).
   */
  database:
    | Pick<DatabaseOptions, 'entities' | 'migrations'>
    | ((config: ServiceConfig<E>) => Pick<DatabaseOptions, 'entities' | 'migrations'>);
  /** Nest modules and providers every role of the service shares. */
  imports?: ModuleMetadata['imports'];
  providers?: Provider[];
  /** Handlers and providers by role; the keys are exactly the service's roles in the manifest. */
  roles: Record<string, RoleDefinition>;
  /** Schemas of topics outside proto's catalogue (test fixtures only). */
  localTopics?: LocalTopicSchemas;
}

export type ServiceConfig<E extends z.ZodRawShape> = ServiceConfigBase & z.infer<z.ZodObject<E>>;

/** The validated config of the running service, injectable everywhere in it. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

export interface DefinedService<C extends ServiceConfigBase> {
  readonly name: string;
  readonly manifest: ServiceManifestEntry;
  /** Validates the environment (platform variables + the service's own); throws ConfigError listing every problem. */
  loadConfig(env?: NodeJS.ProcessEnv): C;
  /** Its TypeORM entities and committed migrations for a config (without the platform's outbox). */
  database(config: C): Pick<DatabaseOptions, 'entities' | 'migrations'>;
  /** The service's root module for a config: the platform, its shared providers and the roles of `config.ROLES`. */
  module(config: C, options?: { background?: boolean }): DynamicModule;
  /**
   * Starts the service: config validated, one Kafka server per role with handlers (its own consumer
   * group) and one per consumer of its own the manifest names (`<service>.<role>.<consumer>`), /health
   * and /metrics on HEALTH_PORT, background jobs, graceful shutdown on SIGTERM/SIGINT.
   */
  start(env?: NodeJS.ProcessEnv): Promise<INestApplication>;
  /** The service's providers without Kafka servers, HTTP or background jobs: for seeds and scripts. */
  context(env?: NodeJS.ProcessEnv): Promise<INestApplicationContext>;
  /** Starts the service when `mod` is the process's main module; returns `start` for tests. */
  main(mod: NodeModule): (env?: NodeJS.ProcessEnv) => Promise<INestApplication>;
}

@Module({})
class ServiceModule {}

/**
 * The platform's answer to `Services[name].ping` (the gateway's /health asks every service through
 * Kafka), so no service writes its own. It runs in the api role.
 */
function pingHandlersFor(service: string, instance: string): Type<unknown>[] {
  const topic = pingTopicOf(service);
  if (!topic) return [];
  @Controller()
  class PlatformPingHandlers {
    @MessagePattern(topic)
    ping() {
      return { service, instance, at: new Date().toISOString() };
    }
  }
  return [PlatformPingHandlers];
}

/** Every role's topics, checked once: a topic belongs to one role, or two consumer groups would each handle it. */
function roleTopics(name: string, roles: Record<string, RoleDefinition>): Map<string, string[]> {
  const owner = new Map<string, string>();
  const byRole = new Map<string, string[]>();
  for (const [role, def] of Object.entries(roles)) {
    const topics = topicsOf(def.handlers ?? []);
    for (const topic of topics) {
      const other = owner.get(topic);
      if (other && other !== role)
        throw new Error(`${name}: topic ${topic} is handled in both the ${other} and the ${role} role`);
      owner.set(topic, role);
    }
    byRole.set(role, topics);
  }
  return byRole;
}

/**
 * The manifest's consumers of each role (`consumers`: topics consumed in a group of their own), checked
 * once: each topic is one the role handles, and in one consumer only.
 */
function roleConsumers(
  manifest: ServiceManifestEntry,
  topicsByRole: Map<string, string[]>,
): (role: string) => Array<[string, readonly string[]]> {
  const byRole = new Map<string, Array<[string, readonly string[]]>>();
  for (const [role, consumers] of Object.entries(manifest.consumers ?? {})) {
    const seen = new Set<string>();
    for (const [consumer, topics] of Object.entries(consumers)) {
      for (const topic of topics) {
        if (!topicsByRole.get(role)?.includes(topic))
          throw new Error(
            `${manifest.name}: consumer ${role}.${consumer} takes ${topic}, which no ${role} handler handles`,
          );
        if (seen.has(topic))
          throw new Error(`${manifest.name}: topic ${topic} is in two consumers of the ${role} role`);
        seen.add(topic);
      }
    }
    byRole.set(role, Object.entries(consumers));
  }
  return (role) => byRole.get(role) ?? [];
}

/**
 * Defines a service from what is its own (name, config, schema, handlers by role, providers); the platform
 * does the rest. A service's main.ts is `export const startXService = xService.main(module);`.
 */
export function defineService<E extends z.ZodRawShape = Record<string, never>>(
  definition: ServiceDefinition<E>,
  manifest: ServiceManifestEntry = manifestEntry(definition.name),
): DefinedService<ServiceConfig<E>> {
  type C = ServiceConfig<E>;
  const { name } = definition;
  const declared = Object.keys(definition.roles);
  const missing = manifest.roles.filter((r) => !declared.includes(r));
  const extra = declared.filter((r) => !manifest.roles.includes(r));
  if (missing.length || extra.length) {
    throw new Error(
      `${name}: the roles defined (${declared.join(', ')}) must be the manifest's (${manifest.roles.join(', ')})`,
    );
  }
  const topicsByRole = roleTopics(name, definition.roles);
  const consumersOf = roleConsumers(manifest, topicsByRole);
  const merged: z.ZodTypeAny = definition.config
    ? serviceConfigSchema(manifest).merge(definition.config)
    : serviceConfigSchema(manifest);
  const { refineConfig } = definition;
  const schema = refineConfig ? merged.superRefine((c: C, ctx) => refineConfig(c, ctx)) : merged;
  process.env.SERVICE_NAME ??= name;

  const service: DefinedService<C> = {
    name,
    manifest,

    loadConfig: (env = process.env) => loadConfig(schema, env) as C,

    database: (config) =>
      typeof definition.database === 'function' ? definition.database(config) : definition.database,

    module(config, { background = false } = {}) {
      const roles = config.ROLES.map((role) => definition.roles[role]);
      const database = service.database(config);
      return {
        module: ServiceModule,
        imports: [
          PlatformModule.forService({
            kafka: kafkaSettingsOf(config, name),
            database: {
              url: config.DATABASE_URL,
              poolIdleMs: config.DATABASE_POOL_IDLE_MS,
              schema: manifest.schema,
              entities: database.entities,
              migrations: database.migrations,
            },
            roles: config.ROLES,
            background: background
              ? {
                  outboxRetentionDays: config.OUTBOX_RETENTION_DAYS,
                  outboxPruneIntervalMs: config.OUTBOX_PRUNE_INTERVAL_MS,
                }
              : undefined,
            localTopics: definition.localTopics,
            handlerRetry: handlerRetryPolicyOf(config),
            handledTopics: [...topicsByRole.values()].flat(),
            actorSigningSecret: config.ACTOR_SIGNING_SECRET,
          }),
          ...(definition.imports ?? []),
        ],
        controllers: [
          ...(config.ROLES.includes(API_ROLE) ? pingHandlersFor(name, config.INSTANCE_ID) : []),
          ...roles.flatMap((r) => r.handlers ?? []),
        ],
        providers: [
          { provide: SERVICE_CONFIG, useValue: config },
          ...(definition.providers ?? []),
          ...roles.flatMap((r) => r.providers ?? []),
        ],
      };
    },

    async start(env = process.env) {
      const started = Date.now();
      const config = service.loadConfig(env);
      const app = await NestFactory.create(service.module(config, { background: true }), {
        logger: new PinoNestLogger(),
        abortOnError: false,
      });
      app.enableShutdownHooks();
      const kafka = kafkaSettingsOf(config, name);
      const servers: Array<{ role: string; group: string }> = [];
      for (const role of config.ROLES) {
        const ping = role === API_ROLE ? pingTopicOf(name) : undefined;
        const topics = [...(ping ? [ping] : []), ...(topicsByRole.get(role) ?? [])];
        // The role's own consumers first take their topics; the role's group consumes the rest.
        const own = consumersOf(role);
        const groups: Array<[string, readonly string[]]> = [
          [consumerGroupOf(name, role), topics.filter((t) => !own.some(([, mine]) => mine.includes(t)))],
          ...own.map(([consumer, mine]): [string, readonly string[]] => [
            consumerGroupOf(name, role, consumer),
            mine,
          ]),
        ];
        for (const [group, groupTopics] of groups) {
          if (!groupTopics.length) continue;
          const { options } = kafkaServerOptions({ ...kafka, group });
          app.connectMicroservice(
            { strategy: new RoleKafkaServer(options, role, groupTopics) },
            { inheritAppConfig: true },
          );
          servers.push({ role, group });
        }
      }
      await app.startAllMicroservices();
      await app.listen(config.HEALTH_PORT, config.HOST);
      const address: unknown = app.getHttpServer().address();
      log.info(
        {
          service: name,
          instance: config.INSTANCE_ID,
          roles: config.ROLES,
          consumerGroups: servers.map((s) => s.group),
          healthPort:
            typeof address === 'object' && address && 'port' in address ? address.port : config.HEALTH_PORT,
          ms: Date.now() - started,
        },
        'service started',
      );
      return app;
    },

    async context(env = process.env) {
      const config = service.loadConfig(env);
      return NestFactory.createApplicationContext(service.module(config), { logger: false });
    },

    main(mod) {
      if (require.main === mod) runMain(() => service.start());
      return service.start;
    },
  };
  return service;
}
