import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { KafkaSettings, kafkaServerOptions } from './kafka';
import { createLogger, PinoNestLogger } from './logging';

const log = createLogger('bootstrap');

export interface ServiceBootOptions {
  module: Type<unknown> | DynamicModule;
  kafka: KafkaSettings;
  /** HTTP port of /health and /metrics; 0 picks a free one. */
  healthPort: number;
  host?: string;
}

/**
 * Boots a service: the Kafka server for its handlers plus a small HTTP server for /health and /metrics.
 * SIGTERM/SIGINT close everything in order, so the consumer leaves its group at once (no rebalance wait).
 */
export async function bootstrapService(o: ServiceBootOptions): Promise<INestApplication> {
  const started = Date.now();
  const app = await NestFactory.create(o.module, { logger: new PinoNestLogger(), abortOnError: false });
  app.enableShutdownHooks();
  app.connectMicroservice(kafkaServerOptions(o.kafka), { inheritAppConfig: true });
  await app.startAllMicroservices();
  await app.listen(o.healthPort, o.host ?? '127.0.0.1');
  const address = app.getHttpServer().address();
  log.info(
    {
      service: o.kafka.service,
      healthPort: typeof address === 'object' && address ? address.port : o.healthPort,
      ms: Date.now() - started,
    },
    'service started',
  );
  return app;
}

/** Runs a service's main: logs and exits non-zero on a boot failure (bad config, broker or DB down). */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err) => {
    log.fatal({ err }, 'failed to start');
    // Give pino a tick to flush.
    setTimeout(() => process.exit(1), 50);
  });
}
