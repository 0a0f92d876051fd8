import { Readable } from 'node:stream';
import { Topics, UPLOAD_CHUNK_BYTES } from '@irp/proto';
import { createLogger } from '@irp/platform';
import { StreamableFile } from '@nestjs/common';
import { errorBodyOf } from '../common/http-exception.filter';
import { ServicesClient } from '../kafka/services.client';

const log = createLogger('announcement-pdf');

/**
 * `inline; filename="..."` that every browser reads: the quoted name in plain ASCII (quotes, backslashes and
 * control characters replaced), and the exact name in RFC 5987 form for those that read UTF-8.
 */
export function contentDispositionOf(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'announcement.pdf';
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * Opens a stored announcement PDF for streaming: the first chunk is read here, so an unknown sendGuid is a
 * 404 (the service's answer) before any header is sent; the rest is read chunk by chunk as the client takes
 * it (the stream's backpressure), never the whole file in memory. A file that changes size or stops
 * short while it is read ends the response early: the client sees a broken download, not a wrong file.
 */
export async function openStoredPdf(
  services: Pick<ServicesClient, 'request'>,
  sendGuid: string,
  chunkBytes: number = UPLOAD_CHUNK_BYTES,
): Promise<StreamableFile> {
  const read = (offset: number) =>
    services.request(Topics.AnnouncementsReadFile, { sendGuid, offset, length: chunkBytes });
  const first = await read(0);
  const size = first.size;

  async function* chunks(): AsyncGenerator<Buffer> {
    let bytes = Buffer.from(first.data, 'base64');
    let offset = 0;
    for (;;) {
      if (bytes.length) yield bytes;
      offset += bytes.length;
      if (offset >= size) return;
      const next = await read(offset);
      bytes = Buffer.from(next.data, 'base64');
      if (next.size !== size || bytes.length === 0)
        throw new Error(`The stored file changed or ended at ${offset} of ${size} bytes`);
    }
  }

  return new StreamableFile(Readable.from(chunks(), { objectMode: false }), {
    type: 'application/pdf',
    length: size,
    disposition: contentDispositionOf(first.fileName),
  }).setErrorHandler((err, res) => {
    log.error({ err, sendGuid }, 'announcement PDF stream failed');
    if (!res.headersSent) {
      const body = errorBodyOf(err);
      res.statusCode = body.statusCode;
      res.send(JSON.stringify(body));
    } else if (res.destroy) {
      // Part of the file (and its Content-Length) is out: breaking the connection is the only way left to
      // tell the client the download is incomplete.
      res.destroy(err);
    } else res.end();
  });
}
