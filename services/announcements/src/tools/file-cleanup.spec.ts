import {
  duplicateGroups,
  missingOnDisk,
  normalisePath,
  notInDatabase,
  pathOfFile,
  sameSizeFiles,
} from './file-cleanup';

const file = (directory: string, filename: string, size: number) => ({ directory, filename, size });

describe('file cleanup report', () => {
  const a = file('ABC-ASX/2025', 'a.pdf', 100);
  const b = file('ABC-ASX/2025', 'b.pdf', 100);
  const c = file('XYZ-ASX/2024', 'c.pdf', 300);
  const loose = file('', 'loose.pdf', 5);

  it('spells paths one way', () => {
    expect(pathOfFile(a)).toBe('ABC-ASX/2025/a.pdf');
    expect(pathOfFile(loose)).toBe('loose.pdf');
    expect(normalisePath('./ABC-ASX\\2025//a.pdf')).toBe('ABC-ASX/2025/a.pdf');
  });

  it('lists announcements whose file is not stored', () => {
    const ref = (localPath: string, sendGuid: string) => ({
      combinedTicker: 'ABC:ASX',
      sendGuid,
      headline: 'H',
      releasedAt: new Date('2025-03-01T00:00:00Z'),
      localPath,
    });
    const missing = missingOnDisk(
      [ref('ABC-ASX/2025/a.pdf', 'g1'), ref('ABC-ASX/2025/gone.pdf', 'g2')],
      [a, b],
    );
    expect(missing).toEqual([
      {
        combinedTicker: 'ABC:ASX',
        sendGuid: 'g2',
        headline: 'H',
        date: '2025-03-01T00:00:00.000Z',
        localPath: 'ABC-ASX/2025/gone.pdf',
      },
    ]);
  });

  it('lists files no announcement names', () => {
    expect(notInDatabase([c, a, loose, b], ['ABC-ASX/2025/a.pdf', './ABC-ASX/2025/b.pdf'])).toEqual([
      loose,
      c,
    ]);
  });

  it('hashes only files that share a size, and groups identical contents', () => {
    expect(sameSizeFiles([a, b, c])).toEqual([a, b]);
    const groups = duplicateGroups([
      { ...b, sha256: 'h1' },
      { ...a, sha256: 'h1' },
      { ...c, sha256: 'h2' },
    ]);
    expect(groups).toEqual([{ sha256: 'h1', size: 100, files: [a, b] }]);
  });
});
