import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  askContributor,
  askContributors,
  Contributor,
  contributorProviders,
  unavailableOf,
} from './contributors';

const warnings: Array<{ fields: object; message: string }> = [];
const log = {
  warn: (fields: object, message: string) => {
    warnings.push({ fields, message });
  },
};
const options = (deadlineMs: number) => ({
  deadlineMs,
  log,
  message: 'part unavailable',
  context: { page: 'p' },
});

describe('contributors with a deadline', () => {
  beforeEach(() => (warnings.length = 0));

  it('gives each contributor the deadline and keeps the registration order, failures included', async () => {
    const asked: Array<[string, number]> = [];
    const results = await askContributors(
      [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
      async (c, ms) => {
        asked.push([c.name, ms]);
        if (c.name === 'b') throw new Error('down');
        return c.name.toUpperCase();
      },
      options(500),
    );
    expect(asked).toEqual([
      ['a', 500],
      ['b', 500],
      ['c', 500],
    ]);
    expect(results.map((r) => (r.ok ? r.value : r.reason))).toEqual(['A', 'down', 'C']);
    expect(unavailableOf(results)).toEqual(['b']);
    expect(warnings).toEqual([
      { fields: { page: 'p', contributor: 'b', reason: 'down' }, message: 'part unavailable' },
    ]);
  });

  it('gives up on a contributor slower than the deadline', async () => {
    // One that never answers: only giving up ends the wait (no elapsed time asserted: a loaded machine).
    const result = await askContributor(
      { name: 'slow' },
      () => new Promise<string>(() => undefined),
      options(50),
    );
    expect(result).toMatchObject({ ok: false, reason: 'no answer within 50 ms' });
  });

  it("registers an area's contributor classes as one array, in the order listed", async () => {
    @Injectable()
    class First {
      readonly name = 'first';
    }
    @Injectable()
    class Second {
      readonly name = 'second';
    }
    const TOKEN = Symbol('TOKEN');
    const module = await Test.createTestingModule({
      providers: contributorProviders<Contributor>(TOKEN, [First, Second]),
    }).compile();
    expect(module.get<Array<{ name: string }>>(TOKEN).map((c) => c.name)).toEqual(['first', 'second']);
  });
});
