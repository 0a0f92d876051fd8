import { RequestTopic } from '@irp/proto';
import { kafkaSettingsOf, ServiceConfigBase } from './config';
import { OnDemandRequester, Requester } from './requester';
import { SingletonJobs } from './singleton-job';

export interface ProjectionBootstrapOptions {
  /** The singleton job's name (`<service>:<what>`): one instance of the service runs it. */
  job: string;
  /**
   * The requester's Kafka client and reply consumer group (`<service>-<what>`): unique per requester, since
   * two requesters sharing a group would split the reply partitions and miss each other's replies.
   */
  client: string;
  /** The request topics a check asks. */
  topics: readonly RequestTopic[];
  intervalMs: number;
  /** How long one request may take. */
  timeoutMs?: number;
  /** One check: asks the owning service with `requester`, applies what it answers. */
  check: (requester: Requester) => Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Fills a service's projection of another service's data by asking that service: at start and every
 * `intervalMs`, on one instance (a singleton job). Events keep a projection current, but a consumer group
 * joins a topic at its latest offset, so what the owner stored before the projecting service first ran (or
 * whose events aged out of the topic, or that changed without an event) would otherwise never reach it. A
 * check must apply idempotently and never undo a newer event. Register it from a provider's onModuleInit,
 * `stop` before shutdown, `close` on shutdown.
 */
export class ProjectionBootstrap {
  private readonly requester: OnDemandRequester;
  private closed = false;
  private stopped!: () => void;
  /** Resolves on stop, so a check waiting for the owning service does not hold shutdown up. */
  private readonly stopping = new Promise<void>((resolve) => (this.stopped = resolve));

  constructor(
    config: ServiceConfigBase,
    private readonly options: ProjectionBootstrapOptions,
  ) {
    // Connected on the first check; a check that outlived its job (stop() lets shutdown go on) must not
    // connect, then send, after the process closed its Kafka clients: close() closes it even mid-connect.
    this.requester = new OnDemandRequester({
      ...kafkaSettingsOf(config, options.client),
      topics: options.topics,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  register(jobs: SingletonJobs): void {
    jobs.register({
      name: this.options.job,
      intervalMs: this.options.intervalMs,
      run: async () => {
        await Promise.race([this.run(), this.stopping]);
      },
    });
  }

  /** One check now (the job's, or a test's). */
  async run(): Promise<void> {
    if (this.closed) return;
    await this.options.check(this.requester);
  }

  /** Stops a check in progress from holding shutdown (call before shutdown). */
  stop(): void {
    this.stopped();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopped();
    await this.requester.close();
  }
}
