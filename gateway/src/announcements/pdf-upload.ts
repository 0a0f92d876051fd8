import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { Topics, UPLOAD_CHUNK_BYTES } from '@irp/proto';
import { ServicesClient } from '../kafka/services.client';

/** How many parts of one upload are in flight at once: fast, without flooding the service's consumer. */
const PARTS_IN_FLIGHT = 4;
/** SaveAnnouncementRequestSchema's limit on `upload.fileName`. */
const MAX_FILE_NAME = 300;

/**
 * The base64 parts of a file, each of at most `chunkBytes` bytes. An empty file is one empty part, so every
 * upload names at least one part and the service, not the gateway, says what is wrong with it.
 */
export function uploadParts(data: Buffer, chunkBytes: number = UPLOAD_CHUNK_BYTES): string[] {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunkBytes ${chunkBytes}`);
  const parts: string[] = [];
  for (let offset = 0; offset < data.length; offset += chunkBytes)
    parts.push(data.subarray(offset, offset + chunkBytes).toString('base64'));
  return parts.length ? parts : [''];
}

/**
 * The name the stored file keeps: no directories (some browsers send the client's path), and at most
 * MAX_FILE_NAME characters, cut from the front so the extension stays.
 */
export function uploadFileName(original: string): string {
  const name = basename(original.replace(/\\/g, '/')).trim() || 'announcement.pdf';
  return name.length > MAX_FILE_NAME ? name.slice(name.length - MAX_FILE_NAME) : name;
}

/** What the save route uses of multer's in-memory file. */
export interface ReceivedFile {
  buffer: Buffer;
  originalname: string;
}

export interface StagedUpload {
  uploadId: string;
  parts: number;
  fileName: string;
}

/**
 * Stages a file with the announcements service as a claim check: a PDF of up to 20 MB does not fit one
 * Kafka message, so its parts go one `announcements.upload-part` each, a few at a time (the service keys
 * them by upload id and index, so their order of arrival does not matter), and the save then names the
 * upload. A part that fails fails the whole upload; the service discards staged parts no save claimed.
 */
export async function stageUpload(
  services: Pick<ServicesClient, 'request'>,
  file: ReceivedFile,
  chunkBytes: number = UPLOAD_CHUNK_BYTES,
): Promise<StagedUpload> {
  const uploadId = randomUUID();
  const parts = uploadParts(file.buffer, chunkBytes);
  let next = 0;
  const worker = async () => {
    while (next < parts.length) {
      const index = next++;
      await services.request(Topics.AnnouncementsUploadPart, { uploadId, index, data: parts[index] });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, parts.length) }, worker));
  return { uploadId, parts: parts.length, fileName: uploadFileName(file.originalname) };
}
