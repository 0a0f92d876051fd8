import { patientDeadline, waitedFor } from './patience';

describe('patientDeadline: a wait lasts until the runner is about to end the test, at least what it asked', () => {
  const global = globalThis as { __irpLimitEnd?: number };
  afterEach(() => delete global.__irpLimitEnd);

  it('is the time asked for outside the integration environment (no limit recorded)', () => {
    const before = Date.now();
    const deadline = patientDeadline(5000);
    expect(deadline).toBeGreaterThanOrEqual(before + 5000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 5000);
  });

  it("goes on to just before the test's own limit when that is later", () => {
    global.__irpLimitEnd = Date.now() + 300_000;
    expect(patientDeadline(5000)).toBe(global.__irpLimitEnd - 2000);
  });

  it('keeps the time asked for when the limit is nearer', () => {
    global.__irpLimitEnd = Date.now() + 1000;
    expect(patientDeadline(5000)).toBeGreaterThan(global.__irpLimitEnd);
  });

  it('says how long a wait went on', () => {
    expect(waitedFor(Date.now() - 1500)).toMatch(/^within 1\.[5-9] s$/);
  });
});
