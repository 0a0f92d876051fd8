/** An accepted mail's mark: which delivery, the server's message id. */
export interface SentMark {
  id: string;
  messageId: string;
}

/** When a group of marks is written: at `groupAt` marks, or `waitMs` after the first of the group. */
export interface MarkGrouping {
  groupAt: number;
  waitMs: number;
}

/**
 * Marks accepted mails `sent` by group commit: marks are written together, when `groupAt` of them wait or
 * `waitMs` after the first, with one statement in flight at a time (marks arriving meanwhile wait for the next).
 * A statement per mail cost more than the SMTP it records (a round trip and a commit each, measured in the
 * sender's profile, issue 35); a few milliseconds' wait makes the groups several mails each. Each mark resolves
 * when its statement committed (a sender holds the mail's slot until then: accepted-but-unmarked mails never
 * exceed SEND_CONCURRENCY) or rejects with its error.
 */
export class SentMarks {
  private pending: Array<SentMark & { done: (err?: unknown) => void }> = [];
  private writing = false;
  private timer?: NodeJS.Timeout;

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
      for (const m of marks) m.done();
    } catch (err) {
      for (const m of marks) m.done(err);
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}
