import { StreamableFile } from '@nestjs/common';
import { jsonOnce } from './json-once';

async function bodyOf(answer: unknown): Promise<Buffer> {
  expect(answer).toBeInstanceOf(StreamableFile);
  const chunks: Buffer[] = [];
  for await (const chunk of (answer as StreamableFile).getStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('jsonOnce', () => {
  it('answers the JSON text of the value, as JSON, with its length', async () => {
    const rows = [{ ticker: 'BHP', name: 'Bhp Group — “Ltd”' }];
    const answer = jsonOnce(rows) as unknown as StreamableFile;
    expect((await bodyOf(answer)).toString('utf8')).toBe(JSON.stringify(rows));
    const headers = answer.getHeaders();
    expect(headers.type).toBe('application/json; charset=utf-8');
    expect(headers.length).toBe(Buffer.byteLength(JSON.stringify(rows)));
  });

  it('serialises one object once, however many callers answer it', async () => {
    const rows = [{ ticker: 'BHP' }];
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const first = await bodyOf(jsonOnce(rows));
      const second = await bodyOf(jsonOnce(rows));
      expect(second.equals(first)).toBe(true);
      expect(stringify.mock.calls.filter(([value]) => value === rows)).toHaveLength(1);
      // Another object (the next reading) is serialised afresh.
      expect((await bodyOf(jsonOnce([{ ticker: 'CSL' }]))).toString()).toBe('[{"ticker":"CSL"}]');
    } finally {
      stringify.mockRestore();
    }
  });
});
