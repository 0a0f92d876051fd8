import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Staged parts older than this are pruned: an upload is saved within seconds, or abandoned. */
const STAGED_PART_TTL = '1 hour';

/** Staged chunks of uploaded PDFs (ADR 0006); the only place that queries their table. */
@Injectable()
export class UploadPartsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async pruneStale(tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM announcements.upload_parts WHERE created_at < now() - interval '${STAGED_PART_TTL}'`,
    );
  }

  /** Locks an upload until `tx` ends, so its parts are checked and written one at a time. */
  async lock(tx: Tx, uploadId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`upload:${uploadId}`]);
  }

  /** Bytes the upload has staged in parts other than `index`. */
  async stagedBytesBesides(tx: Tx, uploadId: string, index: number): Promise<number> {
    const [{ staged }] = (await tx.query(
      `SELECT coalesce(sum(octet_length(data)), 0)::bigint AS staged
         FROM announcements.upload_parts WHERE upload_id = $1 AND index <> $2`,
      [uploadId, index],
    )) as Array<{ staged: string }>;
    return Number(staged);
  }

  /** Stores a part; a retried part replaces itself. */
  async put(tx: Tx, uploadId: string, index: number, data: Buffer): Promise<void> {
    await tx.query(
      `INSERT INTO announcements.upload_parts (upload_id, index, data) VALUES ($1, $2, $3)
       ON CONFLICT (upload_id, index) DO UPDATE SET data = EXCLUDED.data, created_at = now()`,
      [uploadId, index, data],
    );
  }

  async count(tx: Tx, uploadId: string): Promise<number> {
    const [{ received }] = (await tx.query(
      `SELECT count(*)::int AS received FROM announcements.upload_parts WHERE upload_id = $1`,
      [uploadId],
    )) as Array<{ received: number }>;
    return received;
  }

  /** Each part's size, without loading the parts. */
  async sizes(uploadId: string): Promise<Array<{ index: number; size: number }>> {
    return (await this.dataSource.query(
      `SELECT index, octet_length(data) AS size FROM announcements.upload_parts WHERE upload_id = $1`,
      [uploadId],
    )) as Array<{ index: number; size: number }>;
  }

  /** The parts in order. */
  async parts(uploadId: string): Promise<Array<{ index: number; data: Buffer }>> {
    return (await this.dataSource.query(
      `SELECT index, data FROM announcements.upload_parts WHERE upload_id = $1 ORDER BY index`,
      [uploadId],
    )) as Array<{ index: number; data: Buffer }>;
  }

  async drop(uploadId: string, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource).query(`DELETE FROM announcements.upload_parts WHERE upload_id = $1`, [
      uploadId,
    ]);
  }
}
