import { chunks, Semaphore } from './send-message';

describe('sending helpers', () => {
  it('splits a list into chunks', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 3)).toEqual([]);
  });

  it('runs at most `limit` tasks at once, the rest in order', async () => {
    const slots = new Semaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        slots.run(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 10));
          order.push(n);
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    // A failing task frees its slot.
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'still works')).toBe('still works');
  });

  it('acquire takes one slot when it must wait, and every free one (up to max) when it need not', async () => {
    const slots = new Semaphore(3);
    expect(await slots.acquire(2)).toBe(2);
    expect(await slots.acquire(5)).toBe(1);
    let got = 0;
    const waiting = slots.acquire(5).then((n) => (got = n));
    await Promise.resolve();
    expect(got).toBe(0);
    slots.release(2);
    await waiting;
    // The first release handed one slot to the waiter; the second came back free and was taken with it.
    expect(got).toBe(2);
    slots.release(3);
    expect(await slots.acquire(3)).toBe(3);
  });
});
