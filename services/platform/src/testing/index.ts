// `@irp/platform/testing`: the test harness, a subpath of its own so production code never loads it.
export * from './app-error';
export * from './backlog';
export * from './broker';
export * from './database-outage';
export * from './deliveries';
export * from './dlq-probe';
export * from './harness';
export * from './metrics';
export * from './outbox';
export * from './patience';
export * from './service-process';
export * from './smtp-sink';
export * from './standin-process';
export * from './topic-ends';
export * from './log-capture';
export * from './entity-schema';
