import { createLogger, SERVICE_CONFIG, ServiceConfigBase } from '@irp/platform';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { Mailer, SmtpError } from '../mail/mailer';
import { SUPPRESSION_REASON_LABELS } from '@irp/proto';
import { RecordMailEvents } from '../bounces/record-mail-events';
import { ReturnPaths } from '../bounces/return-paths';
import { announcementMailRenderer, MailContent, SubscriberLinks } from '../mail/templates';
import { UnsubscribeTokens } from '../subscribers/unsubscribe-tokens';
import { subscriptionLinks } from '../subscribers/links';
import { ClaimOwner } from './claim-owner';
import { claimsQueued, mailsAccepted, mailsFailed } from './metrics';
import { ClaimedDelivery, DeliveriesRepository, UnmarkedClaim } from './deliveries.repository';
import { afterFailure, Lane, laneOf, stillSubscribed } from './delivery-rules';
import { ReportDeliveries } from './report-deliveries';
import { SendMessage } from './send-message';
import { admissionOf, LaneQueue } from './send-lanes';
import { SendsRepository } from './sends.repository';
import { markGroupingOf } from './delivery-rules';
import { SentMarks } from './sent-marks';

const log = createLogger('sender');

/** Accepted deliveries of a send are reported (sendHistory) after every this many, and when its work here ends. */
const REPORT_EVERY = 250;

/** The longest a stopping sender waits for its mails in flight before it lets go of them. */
const SHUTDOWN_WAIT_MS = 10_000;

/** What stops and starts the batch messages of one lane's topic (the sender's consumer pauses it). */
export interface TopicValve {
  pause(): void;
  resume(): void;
}

/** A claimed delivery waiting for a slot: its send's message and the owner number it was claimed under. */
interface Queued {
  sendId: string;
  delivery: ClaimedDelivery;
  message: SendOfMails;
  owner: number;
}

/** A send's message and, for an announcement, its mail rendered once for all its subscribers. */
interface SendOfMails {
  message: SendMessage;
  render?: (links: SubscriberLinks) => MailContent;
}

/**
 * Sends announcement and fixed-mail deliveries (ADR 0008, 0010, 0016). A batch message is admitted by claiming
 * its deliveries in one statement under this process's owner number (ClaimOwner) and queueing them in their
 * lane (LaneQueue): the handler returns then, so the consumer goes on fetching and a price-sensitive batch is
 * never stuck behind routine ones in a fetch. SEND_CONCURRENCY slots take queued claims, the priority lane's
 * first; each mail is marked `sent` as soon as the server accepts it (SentMarks) and its slot is held until
 * then, so a sender that dies leaves at most SEND_CONCURRENCY accepted mails unmarked: the takeover job finds
 * its owner's lock free and a living sender sends its claims (those waiting and those in flight) again. A lane
 * holding CLAIM_AHEAD claims pauses its topic. A claim whose outcome could not be written (the database away)
 * is given back by this process once the database answers. Accepted addresses are reported
 * (`announcement.delivered`, through the outbox: ReportDeliveries) every REPORT_EVERY and when a send's work
 * here ends.
 */
@Injectable()
export class DeliverBatch implements BeforeApplicationShutdown {
  private readonly messages = new Map<string, SendOfMails>();
  /** Which sender claimed a delivery (operations read it in the table; the scale test checks the split). */
  private readonly instance: string;
  private readonly queue = new LaneQueue<Queued>();
  private inFlight = 0;
  private readonly marks: SentMarks;
  /** Lanes whose topic this process paused, with the valve that takes it again. */
  private readonly paused = new Map<Lane, TopicValve>();
  /** Per send: its deliveries claimed here and not settled, and its acceptances not yet reported. */
  private readonly sends = new Map<string, { open: number; unreported: number }>();
  private closing = false;
  private idle?: () => void;
  /**
   * Claims of this process no longer in flight whose outcome is not written (a failed claim, mark, skip or
   * retry): nobody else takes a living owner's claims, so they are given back (`release`) once the database
   * answers, before the next batch and every second until then.
   */
  private unmarked: UnmarkedClaim[] = [];
  private releaseTimer?: NodeJS.Timeout;
  /** Deliveries this process has claimed and holds (waiting or sending): never given back while here. */
  private readonly holding = new Set<string>();

  constructor(
    private readonly owner: ClaimOwner,
    private readonly deliveries: DeliveriesRepository,
    private readonly sendRows: SendsRepository,
    private readonly reporting: ReportDeliveries,
    private readonly mailer: Mailer,
    private readonly tokens: UnsubscribeTokens,
    private readonly returnPaths: ReturnPaths,
    private readonly mailEvents: RecordMailEvents,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig & ServiceConfigBase,
  ) {
    this.instance = config.INSTANCE_ID;
    this.marks = new SentMarks(
      (marks) => this.deliveries.markSent(marks),
      markGroupingOf(config.SEND_CONCURRENCY),
    );
  }

  /**
   * Admits a batch: claims its due deliveries (those sent or claimed elsewhere are skipped) and queues them in
   * their send's lane; resolves once they are claimed, not sent. `valve` pauses the batch's topic while its lane
   * holds CLAIM_AHEAD claims. Returns how many were claimed.
   */
  async admit(sendId: string, deliveryIds: string[], valve?: TopicValve): Promise<number> {
    // Stopping: nothing claimed; the deliveries stay queued and the sweep announces them again.
    if (this.closing) return 0;
    // Claims given back first: a retried batch then claims them again itself.
    await this.releaseUnmarked();
    const message = await this.messageOf(sendId);
    if (!message) {
      // A batch of a send this database does not have (restored from a backup older than the message, or
      // the topic of another database's run): none of its deliveries exists here either.
      log.warn(
        { sendId, deliveries: deliveryIds.length },
        'delivery batch of an unknown send; nothing to send',
      );
      return 0;
    }
    const owner = await this.owner.current();
    let claimed: ClaimedDelivery[];
    try {
      claimed = await this.deliveries.claim(deliveryIds, this.config.DELIVERY_LEASE_MS, this.instance, owner);
    } catch (error) {
      // The claim may have been written before its answer was lost: given back once the database answers.
      this.giveBack(deliveryIds.map((id) => ({ id, owner })));
      throw error;
    }
    if (!claimed.length) return 0;
    const lane = laneOf(claimed[0]);
    for (const d of claimed) this.holding.add(d.id);
    const send = this.sends.get(sendId) ?? { open: 0, unreported: 0 };
    send.open += claimed.length;
    this.sends.set(sendId, send);
    this.queue.push(
      lane,
      claimed.map((delivery) => ({ sendId, delivery, message, owner })),
    );
    claimsQueued.inc({ lane }, claimed.length);
    if (valve && admissionOf(this.queue.size(lane), false) === 'pause') {
      // Again on every batch over the mark: a consumer started afresh (a rebalance, a crash) forgets a pause.
      valve.pause();
      this.paused.set(lane, valve);
    }
    this.pump();
    return claimed.length;
  }

  /** Waiting claims and mails in flight (tests and the metrics read it). */
  get backlog(): { priority: number; routine: number; inFlight: number } {
    return {
      priority: this.queue.size('priority'),
      routine: this.queue.size('routine'),
      inFlight: this.inFlight,
    };
  }

  /** Starts queued deliveries while slots are free, the priority lane's first; takes paused topics again. */
  private pump(): void {
    while (!this.closing && this.inFlight < this.config.SEND_CONCURRENCY) {
      const next = this.queue.take();
      if (!next) break;
      if (!this.owner.holds(next.item.owner)) {
        // Claimed under an owner number whose lock was lost (the database restarted): the takeover queues it
        // again for a sender, so sending it from here too would mail it twice.
        this.holding.delete(next.item.delivery.id);
        this.settled(next.item, false);
        continue;
      }
      this.inFlight += 1;
      void this.settle(next.item);
    }
    for (const [lane, valve] of this.paused) {
      if (admissionOf(this.queue.size(lane), true) !== 'resume') continue;
      this.paused.delete(lane);
      valve.resume();
    }
    if (this.inFlight === 0) this.idle?.();
  }

  private async settle(q: Queued): Promise<void> {
    let accepted = false;
    try {
      accepted = await this.deliver(q.delivery, q.message);
    } catch (err) {
      // A claim, mark, skip or retry write that failed (the database away): given back once it answers.
      log.warn({ err, deliveryId: q.delivery.id }, 'delivery outcome not written; its claim is given back');
      this.giveBack([{ id: q.delivery.id, owner: q.owner }]);
    } finally {
      this.holding.delete(q.delivery.id);
      this.inFlight -= 1;
      this.settled(q, accepted);
      this.pump();
    }
  }

  /** Reports a send's acceptances every REPORT_EVERY, and once nothing of it is left here. */
  private settled(q: Queued, accepted: boolean): void {
    const send = this.sends.get(q.sendId);
    if (!send) return;
    send.open -= 1;
    if (accepted) send.unreported += 1;
    const last = send.open === 0;
    if (last) this.sends.delete(q.sendId);
    if (
      q.message.message.kind !== 'announcement' ||
      !send.unreported ||
      (!last && send.unreported < REPORT_EVERY)
    )
      return;
    send.unreported = 0;
    // What fails here is left to the sweep, which reports accepted deliveries still unreported.
    this.reporting
      .run(q.sendId)
      .catch((err: unknown) => log.warn({ err, sendId: q.sendId }, 'report failed'));
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
    // One claimed again by this process meanwhile (a retried batch) is its own again: left until it settles.
    const claims = this.unmarked.filter((c) => !this.holding.has(c.id));
    if (!claims.length) return;
    this.unmarked = this.unmarked.filter((c) => this.holding.has(c.id));
    try {
      await this.deliveries.release(claims);
      log.info({ claims: claims.length }, 'claims given back');
    } catch (err) {
      this.unmarked.unshift(...claims);
      throw err;
    }
  }

  private async messageOf(sendId: string): Promise<SendOfMails | null> {
    let send = this.messages.get(sendId);
    if (!send) {
      const message = await this.sendRows.message(sendId);
      if (!message) return null;
      const render =
        message.kind === 'announcement'
          ? announcementMailRenderer({ ...message, publicBaseUrl: this.config.PUBLIC_BASE_URL })
          : undefined;
      send = { message, render };
      if (this.messages.size > 100) this.messages.clear();
      this.messages.set(sendId, send);
    }
    return send;
  }

  /**
   * The mail of one delivery: an announcement with the subscriber's own unsubscribe links, or the fixed mail;
   * or why an announcement is not mailed after all.
   */
  private mailOf(d: ClaimedDelivery, send: SendOfMails): MailContent | { skip: string } {
    if (send.message.kind === 'mail') return send.message.content;
    // Unsubscribed (or removed) since the send was expanded: not mailed.
    if (!stillSubscribed({ status: d.subscriberStatus, id: d.subscriberId }))
      return { skip: 'Unsubscribed before sending' };
    // Bounced or complained since (a suppression holds for every stock).
    if (d.suppressed) return { skip: `Suppressed: ${SUPPRESSION_REASON_LABELS[d.suppressed]}` };
    return send.render!(
      subscriptionLinks(this.config.PUBLIC_BASE_URL, this.tokens.forSubscriber(d.subscriberId!)),
    );
  }

  /** Sends one claimed delivery and writes its outcome; true when the server accepted it. */
  private async deliver(d: ClaimedDelivery, message: SendOfMails): Promise<boolean> {
    const mail = this.mailOf(d, message);
    if ('skip' in mail) {
      await this.deliveries.skip(d.id, mail.skip);
      return false;
    }
    let accepted: { messageId: string };
    try {
      // The delivery's own return path: a bounce names it (VERP).
      accepted = await this.mailer.send(d.email, mail, { returnPath: this.returnPaths.forDelivery(d.id) });
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
      // Given up on with the server's reply (not a connection of ours that failed): a bounce of the address.
      if (final && failure.replyCode)
        await this.mailEvents
          .fromRefusal(d.id, failure.message)
          .catch((err: unknown) => log.warn({ err, deliveryId: d.id }, 'bounce not recorded'));
      return false;
    }
    // The slot is held until the mark is written: accepted-but-unmarked mails never exceed the slots. A mark
    // that fails (the database away) is written again until it is (SentMarks), never given back: the mail was
    // accepted, so its claim queued again would mail it twice; with the slots held meanwhile, no more mail
    // goes out while the database is away.
    await this.marks.mark(d.id, accepted.messageId);
    mailsAccepted.inc({ kind: d.kind });
    return true;
  }

  /**
   * Stopping: no new claims; the claims still waiting are given back (queued again, for the sweep to announce)
   * and the mails in flight finish and are marked, before the Kafka consumer and the owner lock close.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    const waiting = this.queue.drain();
    for (const q of waiting) {
      this.holding.delete(q.delivery.id);
      this.sends.delete(q.sendId);
    }
    if (waiting.length) {
      await this.deliveries
        .release(waiting.map((q) => ({ id: q.delivery.id, owner: q.owner })))
        .catch((err: unknown) =>
          log.warn({ err }, 'waiting claims not given back; their owner lock frees them'),
        );
    }
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        setTimeout(resolve, SHUTDOWN_WAIT_MS).unref();
      });
    }
  }
}
