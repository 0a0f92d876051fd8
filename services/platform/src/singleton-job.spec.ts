import { JobLock, SingletonJob, singletonJobKey } from './singleton-job';

/** An in-process stand-in for the advisory lock: one holder at a time; "dropping" a holder frees it. */
class MemoryLockServer {
  holder?: object;
  connect(): () => Promise<JobLock & { drop(): void }> {
    return async () => {
      const me = {};
      let dropped = false;
      return {
        tryAcquire: async () => {
          if (dropped) throw new Error('connection closed');
          if (this.holder && this.holder !== me) return false;
          this.holder = me;
          return true;
        },
        confirm: async () => {
          if (dropped) throw new Error('connection closed');
        },
        close: async () => {
          if (this.holder === me) this.holder = undefined;
        },
        drop: () => {
          dropped = true;
          if (this.holder === me) this.holder = undefined;
        },
      };
    };
  }
}

const until = async (predicate: () => boolean, timeoutMs = 2000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('singletonJobKey', () => {
  it('is a stable signed 64-bit key, different per job', () => {
    expect(singletonJobKey('outbox-prune:users')).toBe(singletonJobKey('outbox-prune:users'));
    expect(singletonJobKey('outbox-prune:users')).not.toBe(singletonJobKey('outbox-prune:stocks'));
    const key = BigInt(singletonJobKey('x'));
    expect(key >= -(2n ** 63n) && key < 2n ** 63n).toBe(true);
  });
});

describe('SingletonJob', () => {
  const server = new MemoryLockServer();
  const locks: Array<JobLock & { drop(): void }> = [];
  const connect = () => async () => {
    const lock = await server.connect()();
    locks.push(lock);
    return lock;
  };
  const jobs: SingletonJob[] = [];
  afterEach(async () => {
    await Promise.all(jobs.splice(0).map((j) => j.stop()));
    locks.splice(0);
  });

  it('runs on one holder at a time, at its interval, and a contender takes over when the holder is gone', async () => {
    const runs: string[] = [];
    const make = (holder: string) => {
      const job = new SingletonJob({
        name: 'demo',
        holder,
        intervalMs: 20,
        retryMs: 10,
        lock: connect(),
        run: async () => void runs.push(holder),
      });
      jobs.push(job);
      return job;
    };
    const a = make('a');
    a.start();
    await until(() => a.isHolder);
    const b = make('b');
    b.start();
    await until(() => runs.filter((r) => r === 'a').length >= 3);
    expect(b.isHolder).toBe(false);
    expect(runs).not.toContain('b');

    locks[0].drop(); // a's connection ends: the lock is free, and a notices on its next check.
    await until(() => b.isHolder && runs.includes('b'));
    await until(() => !a.isHolder);
    const after = runs.length;
    await until(() => runs.length >= after + 3);
    expect(runs.slice(after).every((r) => r === 'b')).toBe(true);
  });

  it('runs every interval from one run’s start to the next’s, so a run’s own time does not stretch the period', async () => {
    jest.useFakeTimers();
    try {
      const starts: number[] = [];
      const job = new SingletonJob({
        name: 'fixed-rate',
        holder: 'a',
        intervalMs: 1000,
        retryMs: 1000,
        lock: connect(),
        run: async () => {
          starts.push(Date.now());
          await new Promise((r) => setTimeout(r, 400));
        },
      });
      job.start();
      await jest.advanceTimersByTimeAsync(3500);
      const stopped = job.stop();
      await jest.advanceTimersByTimeAsync(1000);
      await stopped;
      expect(starts.slice(1).map((at, i) => at - starts[i])).toEqual([1000, 1000, 1000]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps running after a failed run, and stop() waits for the run in progress and releases the lock', async () => {
    let calls = 0;
    let finished = 0;
    const job = new SingletonJob({
      name: 'flaky',
      holder: 'a',
      intervalMs: 5,
      retryMs: 5,
      lock: connect(),
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('first run fails');
        await new Promise((r) => setTimeout(r, 30));
        finished++;
      },
    });
    job.start();
    await until(() => calls >= 2);
    await job.stop();
    expect(finished).toBe(calls - 1);
    expect(job.isHolder).toBe(false);
    expect(server.holder).toBeUndefined();
  });
});
