import { CachedStockDirectory } from './stock-directory.cache';

const ID = '00000000-0000-4000-8000-00000000000a';

function directory(answers: Record<string, string | null>, ttlMs = 5000, max = 100) {
  const asked: string[] = [];
  const d = new CachedStockDirectory(
    async (ct) => {
      asked.push(ct);
      return answers[ct] ?? null;
    },
    ttlMs,
    max,
  );
  return { d, asked };
}

describe('CachedStockDirectory', () => {
  it('normalises the combinedTicker (bare = ASX, upper case) and keeps found answers', async () => {
    const { d, asked } = directory({ 'BHP:ASX': ID });
    expect(await d.stockIdOf('bhp')).toBe(ID);
    expect(await d.stockIdOf(' BHP:asx ')).toBe(ID);
    expect(asked).toEqual(['BHP:ASX']);
  });

  it('never keeps "not found", so a stock created a moment ago is found', async () => {
    const answers: Record<string, string | null> = {};
    const { d, asked } = directory(answers);
    expect(await d.stockIdOf('NEW:ASX')).toBeNull();
    answers['NEW:ASX'] = ID;
    expect(await d.stockIdOf('NEW:ASX')).toBe(ID);
    expect(asked).toHaveLength(2);
  });

  it('answers null for text that cannot name a stock, without asking', async () => {
    const { d, asked } = directory({});
    expect(await d.stockIdOf('A:B:C')).toBeNull();
    expect(asked).toEqual([]);
  });

  it('answers null for a name longer than any stock has, without asking', async () => {
    const { d, asked } = directory({});
    // 36 characters, 40 with the :ASX a bare ticker gets: still asked.
    expect(await d.stockIdOf('A'.repeat(36))).toBeNull();
    expect(asked).toEqual([`${'A'.repeat(36)}:ASX`]);
    expect(await d.stockIdOf('A'.repeat(37))).toBeNull();
    expect(await d.stockIdOf(`${'B'.repeat(38)}:LSE`)).toBeNull();
    expect(asked).toHaveLength(1);
  });

  it('asks again after the TTL and after forget()', async () => {
    const { d, asked } = directory({ 'BHP:ASX': ID }, 30);
    await d.stockIdOf('BHP:ASX');
    await new Promise((r) => setTimeout(r, 40));
    await d.stockIdOf('BHP:ASX');
    expect(asked).toHaveLength(2);
    d.forget();
    await d.stockIdOf('BHP:ASX');
    expect(asked).toHaveLength(3);
  });

  it('shares one lookup between concurrent callers', async () => {
    const { d, asked } = directory({ 'BHP:ASX': ID });
    const ids = await Promise.all([d.stockIdOf('BHP'), d.stockIdOf('BHP:ASX'), d.stockIdOf('bhp:asx')]);
    expect(ids).toEqual([ID, ID, ID]);
    expect(asked).toHaveLength(1);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const { d, asked } = directory({ 'AAA:ASX': ID, 'BBB:ASX': ID, 'CCC:ASX': ID }, 5000, 2);
    await d.stockIdOf('AAA');
    await d.stockIdOf('BBB');
    await d.stockIdOf('AAA'); // AAA is now the most recently used
    await d.stockIdOf('CCC'); // evicts BBB
    expect(d.size).toBe(2);
    await d.stockIdOf('AAA');
    expect(asked).toEqual(['AAA:ASX', 'BBB:ASX', 'CCC:ASX']);
    await d.stockIdOf('BBB');
    expect(asked).toEqual(['AAA:ASX', 'BBB:ASX', 'CCC:ASX', 'BBB:ASX']);
  });

  it('with a TTL of 0 keeps nothing', async () => {
    const { d, asked } = directory({ 'BHP:ASX': ID }, 0);
    await d.stockIdOf('BHP');
    await d.stockIdOf('BHP');
    expect(asked).toHaveLength(2);
  });
});
