import { createLogger, SERVICE_CONFIG, ServiceConfigBase } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { Mailer, SmtpError } from '../mail/mailer';
import { announcementMail, MailContent } from '../mail/templates';
import { UnsubscribeTokens } from '../subscribers/unsubscribe-tokens';
import { subscriptionLinks } from '../subscribers/links';
import { ClaimOwner } from './claim-owner';
import { mailsAccepted, mailsFailed } from './metrics';
import { ClaimedDelivery, DeliveriesRepository, UnmarkedClaim } from './deliveries.repository';
import { afterFailure, stillSubscribed } from './delivery-rules';
import { ReportDeliveries } from './report-deliveries';
import { chunks, Semaphore, SendMessage } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('sender');

/** Accepted deliveries of a batch are reported (sendHistory) after every this many. */
const REPORT_EVERY = 250;

/**
 * Sends a batch of an announcement's deliveries. Each delivery is claimed in Postgres (status `sending`
 * under this process's owner number, ClaimOwner) before SMTP and marked `sent` as soon as the server
 * accepts it, so a redelivered batch or a second sender skips it, and a sender that dies leaves at most its
 * in-flight mails unmarked: the takeover job finds their owner's lock free and a living sender sends them
 * again within seconds (the only duplicates there can be). A claim whose mark failed (the database away) is
 * given back by this process once the database answers. Accepted addresses are reported
 * (`announcement.delivered`, through the outbox: ReportDeliveries) after each chunk.
 */
@Injectable()
export class DeliverBatch {
  private readonly messages = new Map<string, SendMessage>();
  /** Which sender claimed a delivery (operations read it in the table; the scale test checks the split). */
  private readonly instance: string;
  /** SMTP slots of this process, shared by every batch it works on at once (partitions run concurrently). */
  private readonly slots: Semaphore;
  /** Accepted mails waiting for their `sent` mark, written together (one statement per group). */
  private pendingMarks: Array<{ id: string; messageId: string; done: (err?: unknown) => void }> = [];
  private flushTimer?: NodeJS.Timeout;
  /**
   * Claims of this process no longer in flight whose outcome is not written (a failed claim, mark, skip or
   * retry): nobody else takes a living owner's claims, so they are given back (`release`) once the database
   * answers, before the next batch and every second until then.
   */
  private unmarked: UnmarkedClaim[] = [];
  private releaseTimer?: NodeJS.Timeout;
  /** Deliveries this process has claimed and is sending now: never given back while here. */
  private readonly sending = new Set<string>();

  constructor(
    private readonly owner: ClaimOwner,
    private readonly deliveries: DeliveriesRepository,
    private readonly sends: SendsRepository,
    private readonly reporting: ReportDeliveries,
    private readonly mailer: Mailer,
    private readonly tokens: UnsubscribeTokens,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig & ServiceConfigBase,
  ) {
    this.instance = config.INSTANCE_ID;
    this.slots = new Semaphore(config.SEND_CONCURRENCY);
  }

  /**
   * A delivery is claimed only when an SMTP slot is free for it (the slots free at one moment are claimed in
   * one statement), so a sender never holds more claims than mails in flight: a claim cannot outlive its
   * lease waiting in a queue and be taken and sent again by a second sender while this one still sends it.
   */
  async run(sendId: string, deliveryIds: string[]): Promise<void> {
    // Claims given back first: a retried batch then claims them again itself.
    await this.releaseUnmarked();
    const message = await this.messageOf(sendId);
    for (const ids of chunks(deliveryIds, REPORT_EVERY)) {
      const inFlight: Array<Promise<void>> = [];
      const waiting = [...ids];
      let failure: { error: unknown } | undefined;
      while (waiting.length && !failure) {
        const slots = await this.slots.acquire(waiting.length);
        const asked = waiting.splice(0, slots);
        let owner: number | undefined;
        let claimed: ClaimedDelivery[];
        try {
          owner = await this.owner.current();
          claimed = await this.deliveries.claim(asked, this.config.DELIVERY_LEASE_MS, this.instance, owner);
        } catch (error) {
          this.slots.release(slots);
          // The claim may have been written before its answer was lost: given back once the database answers.
          if (owner !== undefined) this.giveBack(asked.map((id) => ({ id, owner: owner! })));
          failure = { error };
          break;
        }
        // Ids sent or claimed elsewhere already need no slot.
        this.slots.release(slots - claimed.length);
        for (const d of claimed) {
          this.sending.add(d.id);
          inFlight.push(
            this.deliver(d, message)
              .then(
                () => false,
                (error: unknown) => {
                  failure ??= { error };
                  return true;
                },
              )
              .then((failed) => {
                this.sending.delete(d.id);
                this.slots.release(1);
                if (failed) this.giveBack([{ id: d.id, owner: owner! }]);
              }),
          );
        }
      }
      // A failed mark or claim fails the batch (Kafka redelivers it) once what is in flight has settled.
      await Promise.all(inFlight);
      if (failure) throw failure.error;
      await this.reporting.run(sendId);
    }
  }

  /** Claims to give back (see `unmarked`): tried before the next batch, and every second until they are. */
  private giveBack(claims: UnmarkedClaim[]): void {
    this.unmarked.push(...claims);
    this.releaseTimer ??= setTimeout(() => {
      this.releaseTimer = undefined;
      this.releaseUnmarked().catch((err: unknown) => {
        log.warn({ err, claims: this.unmarked.length }, 'claims not given back yet; trying again');
        this.giveBack([]);
      });
    }, 1000).unref();
  }

  private async releaseUnmarked(): Promise<void> {
    // One sent again by this process meanwhile (a retried batch) is its own again: left until it settles.
    const claims = this.unmarked.filter((c) => !this.sending.has(c.id));
    if (!claims.length) return;
    this.unmarked = this.unmarked.filter((c) => this.sending.has(c.id));
    try {
      await this.deliveries.release(claims);
      log.info({ claims: claims.length }, 'claims given back');
    } catch (err) {
      this.unmarked.unshift(...claims);
      throw err;
    }
  }

  private async messageOf(sendId: string): Promise<SendMessage> {
    let message = this.messages.get(sendId);
    if (!message) {
      message = await this.sends.message(sendId);
      if (this.messages.size > 100) this.messages.clear();
      this.messages.set(sendId, message);
    }
    return message;
  }

  /** The mail of one delivery: an announcement with the subscriber's own unsubscribe links, or the fixed mail. */
  private mailOf(d: ClaimedDelivery, message: SendMessage): MailContent | null {
    if (message.kind === 'mail') return message.content;
    // Unsubscribed (or removed) since the send was expanded: not mailed.
    if (!stillSubscribed({ status: d.subscriberStatus, id: d.subscriberId })) return null;
    const links = subscriptionLinks(this.config.PUBLIC_BASE_URL, this.tokens.forSubscriber(d.subscriberId!));
    return announcementMail({
      stock: message.stock,
      announcement: message.announcement,
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
      unsubscribeUrl: links.unsubscribeUrl,
      oneClickUrl: links.oneClickUrl,
    });
  }

  private async deliver(d: ClaimedDelivery, message: SendMessage): Promise<void> {
    const mail = this.mailOf(d, message);
    if (!mail) {
      await this.deliveries.skip(d.id, 'Unsubscribed before sending');
      return;
    }
    let accepted: { messageId: string };
    try {
      accepted = await this.mailer.send(d.email, mail);
    } catch (err) {
      const failure = err instanceof SmtpError ? err : new SmtpError(String(err), false);
      const next = afterFailure(failure, d.attempts, {
        maxAttempts: this.config.DELIVERY_MAX_ATTEMPTS,
        retryBaseMs: this.config.DELIVERY_RETRY_BASE_MS,
      });
      const final = next.status === 'failed';
      if (next.status === 'failed') await this.deliveries.fail(d.id, failure.message);
      else await this.deliveries.retryLater(d.id, failure.message, next.retryInMs);
      if (final) mailsFailed.inc({ kind: d.kind });
      log.warn({ deliveryId: d.id, attempts: d.attempts, final, reply: failure.message }, 'delivery failed');
      return;
    }
    // The slot is held until the mark is written: accepted-but-unmarked mails never exceed the slots. A mark
    // that fails (the database away) is no failed attempt of the mail: it fails the batch, which the handler
    // retry policy tries again; the claim's lease runs out and the sweeper queues the delivery once more.
    await this.markSent(d.id, accepted.messageId);
    mailsAccepted.inc({ kind: d.kind });
  }

  /**
   * Marks an accepted mail `sent`: marks arriving together are written in one statement (group commit),
   * flushed when every slot is waiting on one or after 2 ms, whichever is first.
   */
  private markSent(id: string, messageId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingMarks.push({ id, messageId, done: (err) => (err ? reject(err) : resolve()) });
      if (this.pendingMarks.length >= this.config.SEND_CONCURRENCY) void this.flushMarks();
      else this.flushTimer ??= setTimeout(() => void this.flushMarks(), 2);
    });
  }

  private async flushMarks(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const marks = this.pendingMarks.splice(0);
    if (!marks.length) return;
    try {
      await this.deliveries.markSent(marks);
      for (const m of marks) m.done();
    } catch (err) {
      for (const m of marks) m.done(err);
    }
  }
}
