import type { Lane } from './delivery-rules';

/** The lanes in the order a free SMTP slot looks at them. */
const LANES: readonly Lane[] = ['priority', 'routine'];

/**
 * The claimed deliveries a sender holds and has not started yet (docs/adr/0016), in two lanes: a free slot
 * takes the priority lane's next delivery while there is one, and only then the routine lane's. Within a lane
 * the sends take turns, one delivery each, so a send admitted behind a large one has its first mail out with
 * the large one's next, not after all of it.
 */
export class LaneQueue<T extends { sendId: string }> {
  private readonly lanes: Record<Lane, Map<string, T[]>> = { priority: new Map(), routine: new Map() };
  private readonly sizes: Record<Lane, number> = { priority: 0, routine: 0 };

  push(lane: Lane, items: readonly T[]): void {
    const sends = this.lanes[lane];
    for (const item of items) {
      const queued = sends.get(item.sendId);
      if (queued) queued.push(item);
      else sends.set(item.sendId, [item]);
    }
    this.sizes[lane] += items.length;
  }

  /** The next delivery to start: the priority lane first; within a lane, the send whose turn it is. */
  take(): { lane: Lane; item: T } | undefined {
    for (const lane of LANES) {
      const sends = this.lanes[lane];
      const turn = sends.entries().next();
      if (turn.done) continue;
      const [sendId, queued] = turn.value;
      const item = queued.shift()!;
      // To the back of the lane (a Map keeps insertion order): the next send's turn.
      sends.delete(sendId);
      if (queued.length) sends.set(sendId, queued);
      this.sizes[lane] -= 1;
      return { lane, item };
    }
    return undefined;
  }

  /** Deliveries waiting in one lane, or in both. */
  size(lane?: Lane): number {
    return lane ? this.sizes[lane] : this.sizes.priority + this.sizes.routine;
  }

  /** Every waiting delivery, removed (a sender shutting down gives them back). */
  drain(): T[] {
    const all = LANES.flatMap((lane) => [...this.lanes[lane].values()].flat());
    for (const lane of LANES) {
      this.lanes[lane].clear();
      this.sizes[lane] = 0;
    }
    return all;
  }
}

/**
 * How many claimed deliveries a sender holds waiting in one lane before it stops taking that lane's batch
 * messages (pauses the topic), and below how many it takes them again. Enough to keep every slot busy while
 * the next batch is fetched and claimed; few enough that a second sender finds work in the topic, and that a
 * sender stopped mid-send holds little.
 */
export const CLAIM_AHEAD = { pauseAt: 1000, resumeAt: 500 } as const;

/** Whether a lane's topic should be paused or taken again with `waiting` deliveries queued, or left as it is. */
export function admissionOf(waiting: number, paused: boolean): 'pause' | 'resume' | 'keep' {
  if (!paused && waiting >= CLAIM_AHEAD.pauseAt) return 'pause';
  if (paused && waiting <= CLAIM_AHEAD.resumeAt) return 'resume';
  return 'keep';
}
