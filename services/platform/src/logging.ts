import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

interface RequestContext {
  correlationId: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with a correlation id that every log line and outgoing Kafka message inside it carries. */
export function withCorrelationId<T>(correlationId: string | undefined, fn: () => T): T {
  return context.run({ correlationId: correlationId || randomUUID() }, fn);
}

export function currentCorrelationId(): string | undefined {
  return context.getStore()?.correlationId;
}

let root: Logger | undefined;

/** The process-wide pino logger; each line carries the current correlation id. */
export function rootLogger(): Logger {
  if (!root) {
    root = pino({
      level: process.env.LOG_LEVEL ?? 'info',
      base: { pid: process.pid },
      // Read at each line: the logger is made when the platform is imported, before a service names itself.
      mixin: () => {
        const correlationId = currentCorrelationId();
        const service = process.env.SERVICE_NAME;
        return { ...(service ? { service } : {}), ...(correlationId ? { correlationId } : {}) };
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    });
  }
  return root;
}

export function createLogger(name: string): Logger {
  return rootLogger().child({ logger: name });
}

/** Nest's logger interface over pino, so framework logs are structured too. */
export class PinoNestLogger implements LoggerService {
  private readonly logger = createLogger('nest');
  log(message: unknown, ...rest: unknown[]) {
    this.logger.info({ context: rest.at(-1) }, String(message));
  }
  error(message: unknown, ...rest: unknown[]) {
    this.logger.error({ context: rest.at(-1), trace: rest[0] }, String(message));
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.logger.warn({ context: rest.at(-1) }, String(message));
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.logger.debug({ context: rest.at(-1) }, String(message));
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.logger.trace({ context: rest.at(-1) }, String(message));
  }
}
