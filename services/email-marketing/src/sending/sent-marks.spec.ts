import { SentMark, SentMarks } from './sent-marks';

describe('SentMarks', () => {
  it('writes a group at once when it is full, and the marks that arrive meanwhile after it', async () => {
    const writes: string[][] = [];
    let finishFirst!: () => void;
    let firstStarted!: () => void;
    const firstWriting = new Promise<void>((resolve) => (firstStarted = resolve));
    const marks = new SentMarks(
      async (batch: readonly SentMark[]) => {
        writes.push(batch.map((m) => m.id));
        if (writes.length > 1) return;
        firstStarted();
        await new Promise<void>((resolve) => (finishFirst = resolve));
      },
      { groupAt: 2, waitMs: 60_000 },
    );
    const first = [marks.mark('a', 'm-a'), marks.mark('b', 'm-b')];
    await firstWriting;
    const later = [marks.mark('c', 'm-c'), marks.mark('d', 'm-d'), marks.mark('e', 'm-e')];
    expect(writes).toEqual([['a', 'b']]);
    finishFirst();
    await Promise.all([...first, ...later]);
    expect(writes).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('writes a group smaller than groupAt once its first mark has waited waitMs', async () => {
    const writes: string[][] = [];
    const marks = new SentMarks(
      async (batch: readonly SentMark[]) => void writes.push(batch.map((m) => m.id)),
      { groupAt: 10, waitMs: 1 },
    );
    await Promise.all([marks.mark('a', 'm-a'), marks.mark('b', 'm-b')]);
    expect(writes).toEqual([['a', 'b']]);
  });

  it('writes a failed statement again, with the marks that arrived meanwhile, until it commits', async () => {
    const writes: string[][] = [];
    let failures = 2;
    const marks = new SentMarks(
      async (batch: readonly SentMark[]) => {
        writes.push(batch.map((m) => m.id));
        if (failures-- > 0) throw new Error('connection terminated');
      },
      { groupAt: 1, waitMs: 1, retry: { firstDelayMs: 1, maxDelayMs: 5 } },
    );
    let bDone = false;
    const a = marks.mark('a', 'm-a');
    const b = marks.mark('b', 'm-b').then(() => (bDone = true));
    await a;
    await b;
    expect(bDone).toBe(true);
    // Each failed statement was tried again with its marks first; none was given up.
    expect(writes[0]).toEqual(['a']);
    expect(writes.at(-1)).toEqual(expect.arrayContaining(['a', 'b']));
    expect(writes.flat().filter((id) => id === 'a')).toHaveLength(3);
  });
});
