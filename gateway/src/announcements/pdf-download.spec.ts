import { Readable } from 'node:stream';
import { ErrorCode, RequestOf, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { contentDispositionOf, openStoredPdf } from './pdf-download';

type Read = RequestOf<typeof Topics.AnnouncementsReadFile>;
const GUID = '00000000-0000-4000-8000-0000000000aa';

/** The announcements service's read-file answers over a stored file. */
function storedFile(
  file: Buffer,
  fileName = 'Report.pdf',
  tamper?: (read: Read) => Partial<{ size: number; data: string }>,
) {
  const reads: Read[] = [];
  const services = {
    request: async (topic: string, read: Read) => {
      expect(topic).toBe(Topics.AnnouncementsReadFile);
      reads.push(read);
      if (read.sendGuid !== GUID) throw new AppError(ErrorCode.NotFound, 'Announcement not found');
      const data = file.subarray(read.offset, read.offset + read.length).toString('base64');
      return { data, size: file.length, fileName, stockId: GUID, ...tamper?.(read) };
    },
  };
  return { services: services as never, reads };
}

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('openStoredPdf', () => {
  it('reads the file chunk by chunk until its size, as the stream is consumed', async () => {
    const file = Buffer.from(Array.from({ length: 2050 }, (_, i) => i % 251));
    const { services, reads } = storedFile(file);
    const pdf = await openStoredPdf(services, GUID, 1000);
    // Only the first chunk before anyone reads: the rest follows the client's pace.
    expect(reads.map((r) => r.offset)).toEqual([0]);
    expect(pdf.getHeaders()).toEqual({
      type: 'application/pdf',
      length: 2050,
      disposition: `inline; filename="Report.pdf"; filename*=UTF-8''Report.pdf`,
    });
    expect(await drain(pdf.getStream())).toEqual(file);
    expect(reads.map((r) => [r.offset, r.length])).toEqual([
      [0, 1000],
      [1000, 1000],
      [2000, 1000],
    ]);
  });

  it('streams an empty file as nothing', async () => {
    const { services, reads } = storedFile(Buffer.alloc(0));
    const pdf = await openStoredPdf(services, GUID, 1000);
    expect(pdf.getHeaders().length).toBe(0);
    expect(await drain(pdf.getStream())).toEqual(Buffer.alloc(0));
    expect(reads).toHaveLength(1);
  });

  it("rejects with the service's error before any header when the guid is unknown", async () => {
    const { services } = storedFile(Buffer.from('x'));
    await expect(openStoredPdf(services, '00000000-0000-4000-8000-0000000000bb')).rejects.toMatchObject({
      code: ErrorCode.NotFound,
    });
  });

  it('fails the stream when the file changes size or stops short while it is read', async () => {
    const file = Buffer.alloc(3000, 1);
    const grown = storedFile(file, 'a.pdf', (r) => (r.offset > 0 ? { size: 4000 } : {}));
    await expect(drain((await openStoredPdf(grown.services, GUID, 1000)).getStream())).rejects.toThrow(
      'The stored file changed or ended at 1000 of 3000 bytes',
    );
    const short = storedFile(file, 'a.pdf', (r) => (r.offset >= 2000 ? { data: '' } : {}));
    await expect(drain((await openStoredPdf(short.services, GUID, 1000)).getStream())).rejects.toThrow(
      'ended at 2000 of 3000',
    );
  });
});

describe('contentDispositionOf', () => {
  it('quotes a plain name as it is', () => {
    expect(contentDispositionOf('Quarterly Report.pdf')).toBe(
      `inline; filename="Quarterly Report.pdf"; filename*=UTF-8''Quarterly%20Report.pdf`,
    );
  });

  it('keeps quotes, backslashes and line breaks out of the header, and gives UTF-8 names exactly', () => {
    expect(contentDispositionOf('a"b\\c\r\nd.pdf')).toBe(
      `inline; filename="a_b_c__d.pdf"; filename*=UTF-8''a%22b%5Cc%0D%0Ad.pdf`,
    );
    expect(contentDispositionOf('Résultats (T1).pdf')).toBe(
      `inline; filename="R_sultats (T1).pdf"; filename*=UTF-8''R%C3%A9sultats%20%28T1%29.pdf`,
    );
  });
});
