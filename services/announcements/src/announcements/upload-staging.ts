import { AppError, Tx, UnitOfWork } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { AnnouncementRuleMessages, assembleUpload, decodeBase64 } from './announcement-rules';
import { UploadPartsRepository } from './upload-parts.repository';

/** Uploads in chunks (ADR 0006: a PDF does not fit one Kafka message), staged until their save. */
@Injectable()
export class UploadStaging {
  constructor(
    private readonly parts: UploadPartsRepository,
    private readonly units: UnitOfWork,
  ) {}

  /**
   * Stages one chunk of an upload. Idempotent per (uploadId, index), so a retried chunk replaces itself.
   * The upload is locked while its size is checked and the chunk written, so chunks sent in parallel
   * cannot together pass the limit. Returns how many parts the upload has staged.
   */
  stage(part: { uploadId: string; index: number; data: string }, maxBytes: number): Promise<number> {
    return this.units.run(async (tx) => {
      const bytes = decodeBase64(part.data);
      await this.parts.pruneStale(tx);
      await this.parts.lock(tx, part.uploadId);
      const staged = await this.parts.stagedBytesBesides(tx, part.uploadId, part.index);
      if (staged + bytes.length > maxBytes)
        throw new AppError(ErrorCode.BadRequest, AnnouncementRuleMessages.fileTooLarge(maxBytes));
      await this.parts.put(tx, part.uploadId, part.index, bytes);
      return this.parts.count(tx, part.uploadId);
    });
  }

  /** The staged upload as one checked PDF (assembleUpload's rules). */
  async read(uploadId: string, parts: number, maxBytes: number): Promise<Buffer> {
    // Sizes first: a stale or hostile upload id must not make the service load more than the limit.
    const sizes = await this.parts.sizes(uploadId);
    if (sizes.length !== parts)
      throw new AppError(ErrorCode.BadRequest, AnnouncementRuleMessages.uploadIncomplete);
    if (sizes.reduce((sum, p) => sum + Number(p.size), 0) > maxBytes)
      throw new AppError(ErrorCode.BadRequest, AnnouncementRuleMessages.fileTooLarge(maxBytes));
    return assembleUpload(await this.parts.parts(uploadId), parts, maxBytes);
  }

  /** Deletes an upload's parts (its file stored, or its save refused). */
  drop(uploadId: string, tx?: Tx): Promise<void> {
    return this.parts.drop(uploadId, tx);
  }
}
