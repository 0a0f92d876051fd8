import { createLogger, metricsRegistry, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import type { EmailMarketingConfig } from '../config';
import { UnsubscribeTokens } from '../subscribers/unsubscribe-tokens';
import { bounceKindOf, softBounceDetail, softBouncesSuppress, suppressesAtOnce } from './bounce-rules';
import { readMailReport } from './mail-reports';
import { ReturnPaths } from './return-paths';
import { EventSubject, MailEvent, SuppressionsRepository } from './suppressions.repository';

const log = createLogger('bounces');

/** Reports taken by the bounce listener and refusals of the sender, by kind and what became of them. */
export const mailEventsCounter = new Counter({
  name: 'email_mail_events_total',
  help: 'Bounces and complaints reported about mails of the portal, by kind and outcome',
  labelNames: ['kind', 'outcome'],
  registers: [metricsRegistry],
});

/** What an inbound mail to the bounce domain came to. */
export type InboundOutcome = 'recorded' | 'duplicate' | 'unmatched' | 'not-a-report';

/** The unsubscribe token of a List-Unsubscribe header's https link (the mails' own: templates.ts). */
const UNSUBSCRIBE_TOKEN = /\/subscription\/unsubscribe\/([A-Za-z0-9_-]+)/;

/**
 * Bounces and complaints (issue 36): each is recorded once against the delivery it is about (mail_events) and
 * may suppress its address for every stock: a hard bounce or a complaint at once, soft bounces after
 * SOFT_BOUNCE_LIMIT of distinct mails within SOFT_BOUNCE_WINDOW_DAYS. A report names its delivery only
 * through what the portal signed: the VERP return path it was sent to or that the report quotes, or the
 * unsubscribe link in the quoted List-Unsubscribe; a report naming nothing signed is dropped, so nobody can
 * suppress an address the portal did not mail.
 */
@Injectable()
export class RecordMailEvents {
  constructor(
    private readonly units: UnitOfWork,
    private readonly suppressions: SuppressionsRepository,
    private readonly returnPaths: ReturnPaths,
    private readonly tokens: UnsubscribeTokens,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  /** A mail the bounce listener took for `recipients` (its envelope): a DSN or an ARF report, or neither. */
  async fromInbound(raw: Buffer, recipients: readonly string[]): Promise<InboundOutcome> {
    const read = await readMailReport(raw);
    // Neither a DSN nor an ARF report, or one of no failure (a delay warning, a not-spam report).
    if (!read?.reports.length) return this.counted('none', 'not-a-report');
    const subject = this.subjectOf(recipients, read.original);
    if (!subject) {
      log.warn(
        { recipients, reported: read.reports.map((r) => r.recipient) },
        'a bounce or complaint that names no mail of the portal; dropped',
      );
      for (const r of read.reports) mailEventsCounter.inc({ kind: r.kind, outcome: 'unmatched' });
      return 'unmatched';
    }
    // A return path names one delivery, one mail to one address: the report's first failed recipient is it.
    return (await this.record(subject, read.reports[0]!)) ? 'recorded' : 'duplicate';
  }

  /**
   * A delivery the SMTP server refused for good (a permanent reply, or out of attempts on transient ones): a
   * hard bounce when the reply says the mailbox does not exist, else a soft one.
   */
  async fromRefusal(deliveryId: string, reply: string): Promise<void> {
    await this.record(
      { deliveryId },
      { kind: bounceKindOf(reply), source: 'smtp', detail: reply.slice(0, 500) },
    );
  }

  private async record(subject: EventSubject, event: MailEvent): Promise<boolean> {
    const { SOFT_BOUNCE_LIMIT: limit, SOFT_BOUNCE_WINDOW_DAYS: windowDays } = this.config;
    const outcome = await this.units.run(async (tx) => {
      const email = await this.suppressions.record(tx, subject, event);
      if (!email) return 'duplicate' as const;
      if (suppressesAtOnce(event.kind)) {
        await this.suppressions.suppress(tx, email, event.kind, event.detail);
        return 'suppressed' as const;
      }
      const softBounces = await this.suppressions.softBounces(tx, email, windowDays);
      if (!softBouncesSuppress(softBounces, limit)) return 'recorded' as const;
      await this.suppressions.suppress(
        tx,
        email,
        'soft-bounce',
        softBounceDetail(softBounces, windowDays, event.detail),
      );
      return 'suppressed' as const;
    });
    mailEventsCounter.inc({ kind: event.kind, outcome });
    if (outcome === 'suppressed')
      log.info({ ...subject, kind: event.kind, source: event.source }, 'address suppressed');
    return outcome !== 'duplicate';
  }

  /** The delivery (or subscriber) a report is about, from what the portal signed; undefined when none. */
  private subjectOf(
    recipients: readonly string[],
    original: { returnPath?: string; listUnsubscribe?: string },
  ): EventSubject | undefined {
    for (const address of [...recipients, original.returnPath]) {
      const deliveryId = address ? this.returnPaths.deliveryOf(address) : undefined;
      if (deliveryId) return { deliveryId };
    }
    const token = UNSUBSCRIBE_TOKEN.exec(original.listUnsubscribe ?? '')?.[1];
    const proof = token ? this.tokens.proofOf(token) : undefined;
    return proof && 'subscriberId' in proof ? { subscriberId: proof.subscriberId } : undefined;
  }

  private counted(kind: string, outcome: InboundOutcome): InboundOutcome {
    mailEventsCounter.inc({ kind, outcome });
    return outcome;
  }
}
