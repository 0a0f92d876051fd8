import { createLogger, SERVICE_CONFIG, ServiceConfigBase } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DeliveriesRepository } from './deliveries.repository';

const log = createLogger('sender');

/**
 * This process's proof of life to the other senders. It takes an owner number (`sender_owners`, unique
 * per process start) and holds a session-level advisory lock on it, on a connection of its own, for as long as
 * the process lives; every delivery it claims carries the number. PostgreSQL releases the lock the moment the
 * process's connection closes (a crash, a SIGKILL, or a host gone once TCP gives up), and the takeover job
 * (take-over-claims.ts) then hands that owner's claims to a living sender. A process that is alive but slow or
 * stopped (SIGSTOP, a long pause) keeps its connection, so its claims stay its own.
 *
 * Losing the lock connection while alive (the database restarted) counts as dying for the claims made under
 * that number: the next claim takes a new number, and the claims still waiting here under the old one are
 * left to the takeover, never sent from here (`holds`). The mails then in flight may be sent twice, as a dead
 * sender's may: at most SEND_CONCURRENCY.
 */
@Injectable()
export class ClaimOwner implements OnApplicationShutdown {
  private held?: { client: Client; owner: number };
  private taking?: Promise<number>;
  private closed = false;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfigBase,
  ) {}

  /** The owner number to claim under: held now, or taken (once, whoever asks first) on a new connection. */
  current(): Promise<number> {
    if (this.held) return Promise.resolve(this.held.owner);
    return (this.taking ??= this.take().finally(() => (this.taking = undefined)));
  }

  /**
   * Whether claims made under `owner` are still this process's: false once its lock is lost, when the
   * takeover job hands them to a sender again (a claim waiting here then is never sent from here).
   */
  holds(owner: number): boolean {
    return this.held?.owner === owner;
  }

  private async take(): Promise<number> {
    if (this.closed) throw new Error('the claim owner is closed (shutting down)');
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: `sender:${this.config.INSTANCE_ID}`.slice(0, 63),
      keepAlive: true,
    });
    // An error on the idle connection (its backend terminated) must not crash the process: the lock is gone.
    client.on('error', (err) => this.lose(client, err));
    client.on('end', () => this.lose(client, new Error('claim owner connection closed')));
    try {
      await client.connect();
      const owner = await this.deliveries.lockNewOwner(client);
      this.held = { client, owner };
      log.info({ owner, instance: this.config.INSTANCE_ID }, 'claims owned under a new owner number');
      return owner;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  private lose(client: Client, err: Error): void {
    if (this.held?.client !== client) return;
    log.warn({ owner: this.held.owner, err }, 'claim owner lock lost; claims made under it are taken over');
    this.held = undefined;
    void client.end().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.taking?.catch(() => undefined);
    const held = this.held;
    this.held = undefined;
    // Ending the session releases the lock: claims still unmarked then are taken over at once.
    await held?.client.end().catch(() => undefined);
  }
}
