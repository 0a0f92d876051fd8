import { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createLogger, SERVICE_CONFIG, ServiceConfigBase } from '@irp/platform';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { SMTPServer } from 'smtp-server';
import type { EmailMarketingConfig } from '../config';
import { RecordMailEvents } from './record-mail-events';
import { ReturnPaths } from './return-paths';

const log = createLogger('bounces');

/** An SMTP reply with its code, as smtp-server sends an error's. */
const reply = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The `bounces` role: an SMTP server (smtp-server) that the bounce domain's MX points at. It takes mail for the
 * return paths the portal made (`bounces+<token>@`, checked before any data is read) and for the complaints
 * mailbox, and refuses every other recipient (550 5.1.1: no open relay, no spam trap). Each mail is answered
 * 250 only once RecordMailEvents has recorded what it reports, and 451 when that failed (the database away), so
 * the reporting server keeps it and tries again: nothing is lost. A mail that is no report (an auto-reply) is
 * taken and dropped: a refusal would only send a bounce of a bounce.
 */
@Injectable()
export class BounceListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server?: SMTPServer;

  constructor(
    private readonly returnPaths: ReturnPaths,
    private readonly events: RecordMailEvents,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig & ServiceConfigBase,
  ) {}

  /** Where the listener takes mail (tests read the port of BOUNCE_SMTP_PORT=0). */
  get port(): number {
    return (this.server?.server.address() as AddressInfo | null)?.port ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = new SMTPServer({
      name: this.returnPaths.domain,
      banner: 'IR Portal bounce processing',
      authOptional: true,
      // Reports come from mail servers, which send without AUTH; TLS ends in front of the pod when wanted.
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      size: this.config.BOUNCE_MAX_BYTES,
      maxClients: 100,
      socketTimeout: 60_000,
      onRcptTo: (address, _session, callback) => {
        const to = address.address;
        if (this.returnPaths.deliveryOf(to) || this.returnPaths.isComplaintsAddress(to)) return callback();
        callback(reply(550, '5.1.1 No such mailbox here'));
      },
      onData: (stream, session, callback) => {
        buffer(stream)
          .then(async (raw) => {
            if ((stream as Readable & { sizeExceeded?: boolean }).sizeExceeded)
              return callback(reply(552, '5.3.4 Message too big'));
            const recipients = session.envelope.rcptTo.map((r) => r.address);
            const outcome = await this.events.fromInbound(raw, recipients);
            log.info({ recipients: recipients.length, bytes: raw.length, outcome }, 'report taken');
            callback();
          })
          .catch((err: unknown) => {
            log.warn({ err }, 'report not recorded; the sending server is asked to try again');
            callback(reply(451, '4.3.0 Not recorded, try again later'));
          });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.BOUNCE_SMTP_PORT, this.config.HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Each connection's socket errors (a client that drops the connection) are re-emitted here.
    server.on('error', (err: Error) => log.warn({ err }, 'bounce listener connection error'));
    this.server = server;
    log.info({ port: this.port, domain: this.returnPaths.domain }, 'bounce listener up');
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
