import type { StoredAnnouncement } from '@irp/proto';
import type { MailContent, MailStock } from '../mail/templates';

/**
 * What a send stores (sends.message) so every delivery renders its mail without calling back: an
 * announcement to subscribers (each mail with its own unsubscribe links), or one finished mail for every
 * recipient (confirmation, notification and error mails).
 */
export interface AnnouncementSendMessage {
  kind: 'announcement';
  stock: MailStock;
  announcement: StoredAnnouncement;
}
export interface FixedMailMessage {
  kind: 'mail';
  content: MailContent;
}
export type SendMessage = AnnouncementSendMessage | FixedMailMessage;

/** Split a list into chunks of `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** At most `limit` tasks at once; the others wait in order. */
export class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.free = limit;
  }

  /**
   * Waits for one slot, then takes as many more as are free right now, up to `max` in all: the slots are
   * the caller's until it gives each back with `release`.
   */
  async acquire(max = 1): Promise<number> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // handed over by a release
    const more = Math.max(0, Math.min(this.free, max - 1));
    this.free -= more;
    return 1 + more;
  }

  /** Gives `count` slots back, each to the longest waiting caller first. */
  release(count = 1): void {
    for (let i = 0; i < count; i++) {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire(1);
    try {
      return await task();
    } finally {
      this.release(1);
    }
  }
}
