import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { createLogger } from './logging';
import { singletonJobHolder, singletonJobRuns } from './metrics';

const log = createLogger('singleton-job');

/**
 * The advisory-lock key of a job: the first 8 bytes of a SHA-256 of its name, as a signed bigint. A 64-bit
 * key from a fixed hash keeps jobs apart from each other and from the `hashtext()` keys of migrations and
 * the outbox relay.
 */
export function singletonJobKey(name: string): string {
  return createHash('sha256').update(`job:${name}`).digest().readBigInt64BE(0).toString();
}

/** A lock that at most one holder has at a time, lost when the holder's connection ends. */
export interface JobLock {
  /** Tries once; true when this lock is now held. */
  tryAcquire(): Promise<boolean>;
  /** Resolves when the lock is still held, throws when it is lost (connection gone). */
  confirm(): Promise<void>;
  /** Releases the lock and closes the connection. */
  close(): Promise<void>;
}

/**
 * A PostgreSQL session-level advisory lock on a connection of its own. Session locks live as long as the
 * connection: when the holder dies (even SIGKILL), the server closes its session and the lock is free for
 * the next contender. The connection's application_name says who holds the lock (`job:<job>:<holder>` in
 * `pg_stat_activity`). One job's use of `sharedJobLocks`.
 */
export function postgresJobLock(databaseUrl: string, job: string, holder: string): () => Promise<JobLock> {
  return sharedJobLocks(databaseUrl, holder, `job:${job}:${holder}`)(job);
}

/**
 * The advisory locks of one process's singleton jobs, all on one connection: a session holds any number of
 * advisory locks, so a process with five jobs needs one connection, not five (a stack held 21 such
 * connections, and `make test`'s three stacks 63 of its PostgreSQL's 100). Each job still contends and
 * confirms on its own; when the connection ends, every job of the process loses its lock at once (each one's
 * `confirm()` throws) and contends again on a new connection. `application_name` is `jobs:<holder>` unless
 * named.
 */
export function sharedJobLocks(
  databaseUrl: string,
  holder: string,
  applicationName = `jobs:${holder}`,
): (job: string) => () => Promise<JobLock> {
  interface Session {
    client: Client;
    lost?: Error;
    users: number;
    /** The last query queued: the jobs' queries go one at a time (pg deprecates overlapping ones). */
    tail: Promise<unknown>;
  }
  /** Runs `sql` on the session after the queries queued before it. */
  const query = <R extends object>(s: Session, sql: string, params: unknown[] = []) => {
    const run = s.tail.then(
      () => s.client.query<R>(sql, params),
      () => s.client.query<R>(sql, params),
    );
    s.tail = run.catch(() => undefined);
    return run;
  };
  let current: Session | undefined;
  let opening: Promise<Session> | undefined;
  const open = async (): Promise<Session> => {
    const client = new Client({
      connectionString: databaseUrl,
      application_name: applicationName.slice(0, 63),
      keepAlive: true,
    });
    const session: Session = { client, users: 0, tail: Promise.resolve() };
    // An error on an idle client (its backend terminated) must not crash the process; confirm() reports it.
    client.on('error', (err) => (session.lost = err));
    client.on('end', () => (session.lost ??= new Error('lock connection closed')));
    await client.connect();
    return session;
  };
  /** The live session; a new one once the last was lost (jobs asking together share the opening). */
  const session = (): Promise<Session> => {
    if (current && !current.lost) return Promise.resolve(current);
    opening ??= open()
      .then((s) => (current = s))
      .finally(() => (opening = undefined));
    return opening;
  };
  return (job) => {
    const key = singletonJobKey(job);
    return async () => {
      const s = await session();
      s.users++;
      let closed = false;
      return {
        async tryAcquire() {
          if (s.lost) throw s.lost;
          const { rows } = await query<{ locked: boolean }>(
            s,
            'SELECT pg_try_advisory_lock($1::bigint) AS locked',
            [key],
          );
          return rows[0].locked;
        },
        async confirm() {
          if (s.lost) throw s.lost;
          await query(s, 'SELECT 1');
        },
        async close() {
          if (closed) return;
          closed = true;
          if (!s.lost) await query(s, 'SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
          if (--s.users > 0) return;
          if (current === s) current = undefined;
          await s.client.end().catch(() => undefined);
        },
      };
    };
  };
}

export interface SingletonJobOptions {
  /** Names the lock: every process that runs a job of this name contends for the same one. */
  name: string;
  /** Who this process is, in logs and in the lock connection's application_name. */
  holder: string;
  /** Time from one run's start to the next's while this process holds the lock. */
  intervalMs: number;
  /** One run of the job. A failure is logged; the job runs again at the next interval. */
  run: () => Promise<void>;
  /** The lock: `postgresJobLock(...)` in services. */
  lock: () => Promise<JobLock>;
  /** How often a process without the lock tries to take it (and a holder checks it still has it). */
  retryMs?: number;
}

/**
 * Runs a job on one instance at a time. Every instance contends for an advisory lock every `retryMs`
 * (default 1 s); the holder runs the job at once and then every `intervalMs` (start to start), checking
 * before each run and between runs that its lock connection is alive, so when the holder dies another
 * instance takes over within about `retryMs`. `stop()` waits for a run in progress and releases the lock.
 */
export class SingletonJob {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private lock?: JobLock;
  private held = false;
  private readonly retryMs: number;

  constructor(private readonly options: SingletonJobOptions) {
    this.retryMs = options.retryMs ?? 1000;
  }

  get name(): string {
    return this.options.name;
  }

  /** True while this process holds the lock. */
  get isHolder(): boolean {
    return this.held;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    singletonJobHolder.set({ job: this.options.name, holder: this.options.holder }, 0);
    this.loop = this.contend();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async contend(): Promise<void> {
    let nextRun = 0;
    while (this.running) {
      try {
        if (!this.held) {
          this.lock ??= await this.options.lock();
          if (await this.lock.tryAcquire()) {
            this.setHeld(true);
            nextRun = 0;
          }
        } else {
          await this.lock!.confirm();
        }
        if (this.held && Date.now() >= nextRun && this.running) {
          // The interval is from one run's start to the next's: a run's own time does not stretch it (a 1 s
          // poll tick that took 200 ms had made a 1.2 s period). A run longer than the interval is followed
          // at once, never overlapped.
          const started = Date.now();
          await this.runOnce();
          nextRun = started + this.options.intervalMs;
        }
      } catch (err) {
        // The lock connection failed: whatever we held is gone with it. Start over on a new connection.
        log.warn({ job: this.options.name, holder: this.options.holder, err }, 'singleton job lock lost');
        this.setHeld(false);
        await this.lock?.close().catch(() => undefined);
        this.lock = undefined;
      }
      if (this.running)
        await this.sleep(this.held ? Math.min(this.retryMs, nextRun - Date.now()) : this.retryMs);
    }
    this.setHeld(false);
    await this.lock?.close().catch(() => undefined);
    this.lock = undefined;
  }

  private async runOnce(): Promise<void> {
    try {
      await this.options.run();
      singletonJobRuns.inc({ job: this.options.name, outcome: 'ok' });
    } catch (err) {
      singletonJobRuns.inc({ job: this.options.name, outcome: 'error' });
      log.error({ job: this.options.name, err }, 'singleton job run failed');
    }
  }

  private setHeld(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    singletonJobHolder.set({ job: this.options.name, holder: this.options.holder }, held ? 1 : 0);
    if (held) log.info({ job: this.options.name, holder: this.options.holder }, 'holds the singleton job');
    else
      log.info({ job: this.options.name, holder: this.options.holder }, 'no longer holds the singleton job');
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(ms, 0));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => (this.wake = undefined));
  }
}

/**
 * The singleton jobs of a process, on its database: `register()` them (e.g. in a provider's onModuleInit);
 * the platform starts them once the app is up, in processes that run background work, and stops them on
 * shutdown before the database closes.
 */
export class SingletonJobs {
  private readonly jobs: SingletonJob[] = [];
  private started = false;
  private readonly locks: (job: string) => () => Promise<JobLock>;

  constructor(
    databaseUrl: string,
    private readonly holder: string,
    private readonly enabled: boolean,
  ) {
    this.locks = sharedJobLocks(databaseUrl, holder);
  }

  register(job: Pick<SingletonJobOptions, 'name' | 'intervalMs' | 'run' | 'retryMs'>): SingletonJob {
    const created = new SingletonJob({
      ...job,
      holder: this.holder,
      lock: this.locks(job.name),
    });
    this.jobs.push(created);
    if (this.started) created.start();
    return created;
  }

  list(): readonly SingletonJob[] {
    return this.jobs;
  }

  start(): void {
    if (!this.enabled || this.started) return;
    this.started = true;
    for (const job of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all(this.jobs.map((j) => j.stop()));
  }
}
