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

  it('rejects each mark of a failed statement with its error, and writes the next ones', async () => {
    let fail = true;
    const marks = new SentMarks(
      async () => {
        if (fail) throw new Error('connection terminated');
      },
      { groupAt: 1, waitMs: 1 },
    );
    await expect(marks.mark('a', 'm-a')).rejects.toThrow('connection terminated');
    fail = false;
    await expect(marks.mark('b', 'm-b')).resolves.toBeUndefined();
  });
});
