import { ExpiringKeySet } from './expiring-key-set';

describe('ExpiringKeySet', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('holds a key for the TTL after it was last added', () => {
    const set = new ExpiringKeySet(60_000, 10, clock);
    set.add('k');
    now += 59_999;
    expect(set.has('k')).toBe(true);
    set.add('k');
    now += 59_999;
    expect(set.has('k')).toBe(true);
    now += 1;
    expect(set.has('k')).toBe(false);
    expect(set.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the one added longest ago', () => {
    const set = new ExpiringKeySet(60_000, 2, clock);
    set.add('a');
    set.add('b');
    set.add('a'); // a is now the newest
    set.add('c'); // drops b
    expect([set.has('a'), set.has('b'), set.has('c')]).toEqual([true, false, true]);
    expect(set.size).toBe(2);
  });

  it('keeps nothing with a TTL of 0', () => {
    const set = new ExpiringKeySet(0, 2, clock);
    set.add('a');
    expect(set.has('a')).toBe(false);
  });
});
