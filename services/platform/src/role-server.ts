import { Type } from '@nestjs/common';
import { MetadataScanner } from '@nestjs/core';
import { KafkaOptions, MessageHandler, ServerKafka } from '@nestjs/microservices';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { keepConsuming, retryMaxMsOf, sizedCompressionClient } from './kafka';

/** The Kafka topics a handler class listens on (its @MessagePattern / @EventPattern patterns). */
export function topicsOf(handlers: readonly Type<unknown>[]): string[] {
  const scanner = new MetadataScanner();
  const topics: string[] = [];
  for (const handler of handlers) {
    const prototype = handler.prototype as Record<string, unknown>;
    for (const method of scanner.getAllMethodNames(prototype)) {
      const patterns: unknown = Reflect.getMetadata(PATTERN_METADATA, prototype[method] as object);
      if (patterns === undefined) continue;
      for (const pattern of Array.isArray(patterns) ? patterns : [patterns]) {
        if (typeof pattern !== 'string')
          throw new Error(
            `${handler.name}.${method}: a Kafka pattern is a topic name, not ${JSON.stringify(pattern)}`,
          );
        topics.push(pattern);
      }
    }
  }
  return topics;
}

/**
 * The Kafka server of one role of a process. Nest registers every handler of the application on every
 * server it runs; this one keeps only the topics of its role, so each role subscribes in its own consumer
 * group to its own topics, and a process with several roles runs one of these per role. Its consumer is
 * kept consuming across broker outages (keepConsuming): Nest's server only reports a crash.
 */
export class RoleKafkaServer extends ServerKafka {
  private readonly topics: ReadonlySet<string>;
  private closing = false;

  constructor(
    options: Required<KafkaOptions>['options'],
    readonly role: string,
    topics: readonly string[],
  ) {
    super(options);
    this.topics = new Set(topics);
  }

  override createClient<T>(): T {
    return sizedCompressionClient(super.createClient()) as T;
  }

  protected override registerConsumerEventListeners(): void {
    super.registerConsumerEventListeners();
    const consumer = this.consumer;
    if (!consumer) return;
    this.closing = false;
    keepConsuming(consumer, {
      group: this.groupId,
      retryMs: retryMaxMsOf(this.options.client),
      run: () => this.bindEvents(consumer),
      closing: () => this.closing || this.consumer !== consumer,
    });
  }

  override async close(): Promise<void> {
    this.closing = true;
    await super.close();
  }

  override addHandler(
    pattern: unknown,
    callback: MessageHandler,
    isEventHandler?: boolean,
    extras?: Record<string, unknown>,
  ): void {
    if (typeof pattern === 'string' && this.topics.has(pattern))
      super.addHandler(pattern, callback, isEventHandler, extras);
  }
}
