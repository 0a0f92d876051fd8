import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUuid } from './randomUuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a version 4 UUID, a new one each time', () => {
    const a = randomUuid();
    expect(a).toMatch(V4);
    expect(randomUuid()).not.toBe(a);
  });

  it('is made from getRandomValues where randomUUID is missing (a page over plain HTTP on a LAN address)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', {
      getRandomValues: <T extends ArrayBufferView>(b: T) => real.getRandomValues(b),
    });
    expect(randomUuid()).toMatch(V4);
  });
});
