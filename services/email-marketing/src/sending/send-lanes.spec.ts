import { admissionOf, CLAIM_AHEAD, LaneQueue } from './send-lanes';

const item = (sendId: string, n: number) => ({ sendId, id: `${sendId}-${n}` });
const ids = (queue: LaneQueue<ReturnType<typeof item>>, count: number) =>
  Array.from({ length: count }, () => queue.take()?.item.id);

describe('LaneQueue', () => {
  it('gives the priority lane first, whatever was queued before it', () => {
    const queue = new LaneQueue<ReturnType<typeof item>>();
    queue.push('routine', [item('r', 1), item('r', 2)]);
    queue.push('priority', [item('p', 1)]);
    expect(queue.take()).toEqual({ lane: 'priority', item: item('p', 1) });
    expect(ids(queue, 3)).toEqual(['r-1', 'r-2', undefined]);
  });

  it("takes a lane's sends in turn, so a small send queued behind a large one is not kept waiting", () => {
    const queue = new LaneQueue<ReturnType<typeof item>>();
    queue.push(
      'routine',
      [1, 2, 3, 4].map((n) => item('big', n)),
    );
    queue.push('routine', [item('small', 1)]);
    queue.push('routine', [item('big', 5)]);
    expect(ids(queue, 6)).toEqual(['big-1', 'small-1', 'big-2', 'big-3', 'big-4', 'big-5']);
  });

  it('counts each lane and gives everything back on drain', () => {
    const queue = new LaneQueue<ReturnType<typeof item>>();
    queue.push('routine', [item('r', 1)]);
    queue.push('priority', [item('p', 1), item('p', 2)]);
    expect([queue.size('priority'), queue.size('routine'), queue.size()]).toEqual([2, 1, 3]);
    expect(
      queue
        .drain()
        .map((i) => i.id)
        .sort(),
    ).toEqual(['p-1', 'p-2', 'r-1']);
    expect(queue.size()).toBe(0);
    expect(queue.take()).toBeUndefined();
  });
});

describe('admissionOf', () => {
  it('pauses a lane at CLAIM_AHEAD and takes it again only once it is down to the resume mark', () => {
    expect(admissionOf(CLAIM_AHEAD.pauseAt - 1, false)).toBe('keep');
    expect(admissionOf(CLAIM_AHEAD.pauseAt, false)).toBe('pause');
    expect(admissionOf(CLAIM_AHEAD.resumeAt + 1, true)).toBe('keep');
    expect(admissionOf(CLAIM_AHEAD.resumeAt, true)).toBe('resume');
    expect(admissionOf(0, false)).toBe('keep');
  });
});
