import {
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Provider,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DEV_ACTOR_SIGNING_SECRET } from '@irp/proto/signing';
import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from './unit-of-work';
import { DatabaseOptions, openDatabase, withOutbox } from './database';
import { DlqPublisher } from './dlq';
import { DlqDepth } from './dlq-depth';
import { HEALTH_CHECKS, HEALTH_INFO, HealthCheck, HealthInfo } from './health/health-checks';
import { HealthController } from './health/health.controller';
import { connectProducer, KafkaSettings } from './kafka';
import { createLogger } from './logging';
import { ACTOR_SIGNING_SECRET, HANDLER_RETRY_POLICY, MessageInterceptor } from './message.interceptor';
import { LOCAL_TOPIC_SCHEMAS, LocalTopicSchemas } from './messages';
import { dlqDepthSources, initMetrics } from './metrics';
import { DEFAULT_HANDLER_RETRY, HandlerRetryPolicy } from './reliability/handler-retry';
import { Outbox, OutboxRelay } from './outbox/outbox';
import { pruneOutbox } from './outbox/outbox-pruner';
import { SingletonJobs } from './singleton-job';

export const KAFKA_PRODUCER = Symbol('KAFKA_PRODUCER');

export interface PlatformOptions {
  kafka: KafkaSettings;
  database: DatabaseOptions;
  /** The roles this process runs, shown by /health. */
  roles?: readonly string[];
  /**
   * Background work of a running service: singleton jobs, the outbox pruning among them. Off in short-lived
   * application contexts (seeds), which only want the service's providers.
   */
  background?: { outboxRetentionDays: number; outboxPruneIntervalMs: number };
  localTopics?: LocalTopicSchemas;
  /** How handlers retry transient failures (see MessageInterceptor); default DEFAULT_HANDLER_RETRY. */
  handlerRetry?: HandlerRetryPolicy;
  /** The topics the service handles: their `.dlq` topics' depth is `irp_dlq_depth` on /metrics. */
  handledTopics?: readonly string[];
  /** Verifies requests' actors (ACTOR_SIGNING_SECRET); default the development secret. */
  actorSigningSecret?: string;
}

const log = createLogger('platform');

/**
 * Starts the outbox relay and the singleton jobs once the app is up, and closes the jobs, relay, producer
 * and database on shutdown, in that order (jobs and relay use the database and the producer).
 */
@Injectable()
class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly relay: OutboxRelay,
    @Inject(KAFKA_PRODUCER) private readonly producer: Producer,
    private readonly dataSource: DataSource,
    private readonly jobs: SingletonJobs,
    private readonly dlqDepth: DlqDepth,
  ) {}

  onApplicationBootstrap() {
    this.relay.start();
    this.jobs.start();
    dlqDepthSources.add(this.dlqDepth);
  }

  async onApplicationShutdown(signal?: string) {
    log.info({ signal }, 'shutting down');
    dlqDepthSources.delete(this.dlqDepth);
    await this.dlqDepth.close();
    await this.jobs.stop();
    await this.relay.stop();
    await this.producer.disconnect();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * What every service gets: its database (schema + migrations), a Kafka producer, the DLQ publisher, the
 * outbox and its relay, the message interceptor on every handler, and /health + /metrics.
 */
@Module({})
export class PlatformModule {
  static forService(options: PlatformOptions): DynamicModule {
    initMetrics(options.kafka.service);
    const database: DatabaseOptions = {
      ...options.database,
      entities: withOutbox(options.database.entities),
    };
    let producerConnected = false;
    const providers: Provider[] = [
      { provide: DataSource, useFactory: () => openDatabase(database) },
      {
        provide: KAFKA_PRODUCER,
        useFactory: async () => {
          const producer = await connectProducer(options.kafka);
          producerConnected = true;
          producer.on(producer.events.DISCONNECT, () => (producerConnected = false));
          producer.on(producer.events.CONNECT, () => (producerConnected = true));
          return producer;
        },
      },
      { provide: UnitOfWork, useFactory: (ds: DataSource) => new UnitOfWork(ds), inject: [DataSource] },
      { provide: DlqPublisher, useFactory: (p: Producer) => new DlqPublisher(p), inject: [KAFKA_PRODUCER] },
      {
        provide: OutboxRelay,
        useFactory: (ds: DataSource, p: Producer) =>
          new OutboxRelay(ds, p, options.database.schema, 250, options.database.url),
        inject: [DataSource, KAFKA_PRODUCER],
      },
      { provide: Outbox, useFactory: (relay: OutboxRelay) => new Outbox(relay), inject: [OutboxRelay] },
      {
        provide: SingletonJobs,
        useFactory: (ds: DataSource) => {
          const { background } = options;
          const jobs = new SingletonJobs(
            options.database.url,
            `${options.kafka.service}:${options.kafka.instanceId}`,
            background !== undefined,
          );
          if (background) {
            jobs.register({
              name: `outbox-prune:${options.database.schema}`,
              intervalMs: background.outboxPruneIntervalMs,
              run: async () => {
                await pruneOutbox(ds, options.database.schema, {
                  retentionDays: background.outboxRetentionDays,
                });
              },
            });
          }
          return jobs;
        },
        inject: [DataSource],
      },
      { provide: DlqDepth, useValue: new DlqDepth(options.kafka, options.handledTopics ?? []) },
      { provide: LOCAL_TOPIC_SCHEMAS, useValue: options.localTopics ?? {} },
      { provide: HANDLER_RETRY_POLICY, useValue: options.handlerRetry ?? DEFAULT_HANDLER_RETRY },
      { provide: ACTOR_SIGNING_SECRET, useValue: options.actorSigningSecret ?? DEV_ACTOR_SIGNING_SECRET },
      {
        provide: HEALTH_INFO,
        useValue: {
          service: options.kafka.service,
          instance: options.kafka.instanceId,
          roles: options.roles ?? [],
        } satisfies HealthInfo,
      },
      {
        provide: HEALTH_CHECKS,
        useFactory: (ds: DataSource): HealthCheck[] => [
          { name: 'database', check: () => ds.query('SELECT 1') },
          {
            name: 'kafka',
            check: async () => {
              if (!producerConnected) throw new Error('producer disconnected');
            },
          },
        ],
        inject: [DataSource],
      },
      { provide: APP_INTERCEPTOR, useClass: MessageInterceptor },
      PlatformLifecycle,
    ];
    return {
      module: PlatformModule,
      global: true,
      controllers: [HealthController],
      providers,
      exports: [DataSource, UnitOfWork, KAFKA_PRODUCER, DlqPublisher, Outbox, OutboxRelay, SingletonJobs],
    };
  }
}
