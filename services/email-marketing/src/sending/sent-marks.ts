import { backoffDelayMs, createLogger, HandlerRetryPolicy } from '@irp/platform';

const log = createLogger('sender');

/** An accepted mail's mark: which delivery, the server's message id. */
export interface SentMark {
  id: string;
  messageId: string;
}

/** When a group of marks is written: at `groupAt` marks, or `waitMs` after the first of the group. */
export interface MarkGrouping {
  groupAt: number;
  waitMs: number;
  /** The wait before writing a failed statement's marks again: the platform's backoff (doubling, jittered). */
  retry?: Pick<HandlerRetryPolicy, 'firstDelayMs' | 'maxDelayMs'>;
}

const DEFAULT_RETRY = { firstDelayMs: 100, maxDelayMs: 2000 };

/**
 * Marks accepted mails `sent` by group commit: marks are written together, when `groupAt` of them wait or
 * `waitMs` after the first, with one statement in flight at a time (marks arriving meanwhile wait for the next).
 * A statement per mail cost more than the SMTP it records (a round trip and a commit each, measured in the
 * sender's profile, issue 35); a few milliseconds' wait makes the groups several mails each. Each mark resolves
 * when its statement committed (a sender holds the mail's slot until then: accepted-but-unmarked mails never
 * exceed SEND_CONCURRENCY). A statement that fails (the database away) is written again with the marks that
 * arrived meanwhile, `retry` apart (the platform's backoff), until it commits: the mails were accepted, and
 * a mark given up would have their claims queued again and the mails sent twice (the recovery bench's
 * PostgreSQL crash: 1,739 mails twice in a 1.8 s outage while failed marks gave their claims back).
 */
export class SentMarks {
  private pending: Array<SentMark & { done: (err?: unknown) => void }> = [];
  private writing = false;
  private timer?: NodeJS.Timeout;
  /** Failed statements in a row: the next retry waits longer. */
  private failures = 0;

  constructor(
    private readonly write: (marks: readonly SentMark[]) => Promise<void>,
    private readonly grouping: MarkGrouping,
  ) {}

  mark(id: string, messageId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ id, messageId, done: (err) => (err ? reject(err) : resolve()) });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.writing || !this.pending.length) return;
    if (this.pending.length >= this.grouping.groupAt) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.grouping.waitMs);
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return;
    this.writing = true;
    const marks = this.pending.splice(0);
    try {
      await this.write(marks);
      this.failures = 0;
      for (const m of marks) m.done();
    } catch (err) {
      // Written again, first: these marks were waiting longest. Nothing else is written meanwhile.
      this.pending.unshift(...marks);
      this.failures += 1;
      const waitMs = backoffDelayMs(this.failures, this.grouping.retry ?? DEFAULT_RETRY);
      log.warn(
        { err, marks: this.pending.length, retryInMs: waitMs },
        'sent marks not written; writing them again',
      );
      // Unref'd: a process stopping does not wait for the database (its claims are then taken over).
      await new Promise((resolve) => setTimeout(resolve, waitMs).unref());
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}
