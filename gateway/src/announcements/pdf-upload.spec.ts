import { RequestOf, Topics, UPLOAD_CHUNK_BYTES, UploadPartRequestSchema } from '@irp/proto';
import { stageUpload, uploadFileName, uploadParts } from './pdf-upload';

type Part = RequestOf<typeof Topics.AnnouncementsUploadPart>;

/** A ServicesClient stand-in that records upload parts and answers them, some slower than others. */
function recordingServices(fail?: (part: Part) => boolean) {
  const parts: Part[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const services = {
    request: async (topic: string, payload: Part) => {
      expect(topic).toBe(Topics.AnnouncementsUploadPart);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, payload.index % 3));
      inFlight--;
      if (fail?.(payload)) throw new Error(`part ${payload.index} failed`);
      parts.push(payload);
      return { uploadId: payload.uploadId, received: payload.index + 1 };
    },
  };
  return { services: services as never, parts, maxInFlight: () => maxInFlight };
}

describe('uploadParts', () => {
  it('cuts a file into base64 parts of at most chunkBytes that join back to the same bytes', () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const parts = uploadParts(data, 300);
    expect(parts).toHaveLength(4);
    expect(parts.map((p) => Buffer.from(p, 'base64').length)).toEqual([300, 300, 300, 100]);
    expect(Buffer.concat(parts.map((p) => Buffer.from(p, 'base64')))).toEqual(data);
  });

  it('makes exactly n parts for n whole chunks, and one empty part for an empty file', () => {
    expect(uploadParts(Buffer.alloc(600), 300)).toHaveLength(2);
    expect(uploadParts(Buffer.alloc(0), 300)).toEqual(['']);
  });

  it('keeps every part of the default size within the upload-part message schema', () => {
    const data = Buffer.alloc(UPLOAD_CHUNK_BYTES * 2 + 1, 0xff);
    const parts = uploadParts(data);
    expect(parts).toHaveLength(3);
    for (const [index, part] of parts.entries())
      expect(
        UploadPartRequestSchema.safeParse({
          uploadId: '00000000-0000-4000-8000-000000000001',
          index,
          data: part,
        }).success,
      ).toBe(true);
  });

  it('refuses a chunk size that would never finish', () => {
    expect(() => uploadParts(Buffer.alloc(1), 0)).toThrow(RangeError);
  });
});

describe('uploadFileName', () => {
  it('keeps only the name, whatever path a browser sent', () => {
    expect(uploadFileName('C:\\Users\\ir\\Results.pdf')).toBe('Results.pdf');
    expect(uploadFileName('/home/ir/Q3 report.pdf')).toBe('Q3 report.pdf');
    expect(uploadFileName('  ')).toBe('announcement.pdf');
  });

  it('cuts a long name from the front so the extension stays', () => {
    const name = uploadFileName(`${'x'.repeat(400)}.pdf`);
    expect(name).toHaveLength(300);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('stageUpload', () => {
  it('sends every part once under one upload id, a few at a time, and names the upload', async () => {
    const { services, parts, maxInFlight } = recordingServices();
    const data = Buffer.from(Array.from({ length: 2500 }, (_, i) => (i * 7) % 256));
    const staged = await stageUpload(services, { buffer: data, originalname: 'dir/Annual Report.pdf' }, 100);
    expect(staged).toEqual({ uploadId: expect.any(String), parts: 25, fileName: 'Annual Report.pdf' });
    expect(parts).toHaveLength(25);
    expect(new Set(parts.map((p) => p.uploadId))).toEqual(new Set([staged.uploadId]));
    const ordered = [...parts].sort((a, b) => a.index - b.index);
    expect(ordered.map((p) => p.index)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(Buffer.concat(ordered.map((p) => Buffer.from(p.data, 'base64')))).toEqual(data);
    expect(maxInFlight()).toBeGreaterThan(1);
    expect(maxInFlight()).toBeLessThanOrEqual(4);
  });

  it('fails when a part fails, so no save names an incomplete upload', async () => {
    const { services } = recordingServices((p) => p.index === 3);
    await expect(
      stageUpload(services, { buffer: Buffer.alloc(1000), originalname: 'a.pdf' }, 100),
    ).rejects.toThrow('part 3 failed');
  });

  it('uses a new upload id for every upload', async () => {
    const { services } = recordingServices();
    const file = { buffer: Buffer.from('%PDF-1.7'), originalname: 'a.pdf' };
    const [a, b] = await Promise.all([stageUpload(services, file), stageUpload(services, file)]);
    expect(a.uploadId).not.toBe(b.uploadId);
    expect(a.parts).toBe(1);
  });
});
