import { AppError } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { EntityManager } from 'typeorm';
import { AnnouncementRuleMessages, assembleUpload, decodeBase64 } from './announcement-rules';

/** Staged parts older than this are pruned: an upload is saved within seconds, or abandoned. */
const STAGED_PART_TTL = '1 hour';

/**
 * Stages one chunk of an upload (ADR 0006: a PDF does not fit one Kafka message). Idempotent per
 * (uploadId, index), so a retried chunk replaces itself. The upload is locked while its size is checked
 * and the chunk written, so chunks sent in parallel cannot together pass the limit. Returns how many
 * parts the upload has staged.
 */
export async function stageUploadPart(
  m: EntityManager,
  part: { uploadId: string; index: number; data: string },
  maxBytes: number,
): Promise<number> {
  const bytes = decodeBase64(part.data);
  await m.query(
    `DELETE FROM announcements.upload_parts WHERE created_at < now() - interval '${STAGED_PART_TTL}'`,
  );
  await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`upload:${part.uploadId}`]);
  const [{ staged }] = (await m.query(
    `SELECT coalesce(sum(octet_length(data)), 0)::bigint AS staged
       FROM announcements.upload_parts WHERE upload_id = $1 AND index <> $2`,
    [part.uploadId, part.index],
  )) as Array<{ staged: string }>;
  if (Number(staged) + bytes.length > maxBytes)
    throw new AppError(ErrorCode.BadRequest, AnnouncementRuleMessages.fileTooLarge(maxBytes));
  await m.query(
    `INSERT INTO announcements.upload_parts (upload_id, index, data) VALUES ($1, $2, $3)
     ON CONFLICT (upload_id, index) DO UPDATE SET data = EXCLUDED.data, created_at = now()`,
    [part.uploadId, part.index, bytes],
  );
  const [{ received }] = (await m.query(
    `SELECT count(*)::int AS received FROM announcements.upload_parts WHERE upload_id = $1`,
    [part.uploadId],
  )) as Array<{ received: number }>;
  return received;
}

/** The staged upload as one checked PDF (assembleUpload's rules). */
export async function readUpload(
  m: EntityManager,
  uploadId: string,
  parts: number,
  maxBytes: number,
): Promise<Buffer> {
  // Sizes first: a stale or hostile upload id must not make the service load more than the limit.
  const sizes = (await m.query(
    `SELECT index, octet_length(data) AS size FROM announcements.upload_parts WHERE upload_id = $1`,
    [uploadId],
  )) as Array<{ index: number; size: number }>;
  if (sizes.length !== parts)
    throw new AppError(ErrorCode.BadRequest, AnnouncementRuleMessages.uploadIncomplete);
  if (sizes.reduce((sum, p) => sum + Number(p.size), 0) > maxBytes)
    throw new AppError(ErrorCode.BadRequest, AnnouncementRuleMessages.fileTooLarge(maxBytes));
  const staged = (await m.query(
    `SELECT index, data FROM announcements.upload_parts WHERE upload_id = $1 ORDER BY index`,
    [uploadId],
  )) as Array<{ index: number; data: Buffer }>;
  return assembleUpload(staged, parts, maxBytes);
}

/** Deletes an upload's parts once its file is stored. */
export async function dropUpload(m: EntityManager, uploadId: string): Promise<void> {
  await m.query(`DELETE FROM announcements.upload_parts WHERE upload_id = $1`, [uploadId]);
}
