import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  mixin,
  NestInterceptor,
  PayloadTooLargeException,
  Type,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { FileInterceptor, NoFilesInterceptor } from '@nestjs/platform-express';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import type { MultipartSpec } from '@irp/proto';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { refuseMalformedText } from './well-formed-text';

/**
 * A multipart/form-data body (the route entry's `multipart`): text fields (the entry's `body` schema) and
 * one file, capped by a gateway setting, or text fields only (no `file`: a file part is refused).
 */
export type MultipartBody = MultipartSpec;

export const NOT_MULTIPART = 'This route takes a multipart/form-data body';

/** '20 MB' for 20 MiB, '1.5 MB', '512 KB': a size limit as people read it. */
export function sizeText(bytes: number): string {
  const MiB = 1024 * 1024;
  return bytes >= MiB ? `${Math.round((bytes / MiB) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

export const fileTooLargeMessage = (maxBytes: number): string =>
  `The file is larger than ${sizeText(maxBytes)}`;

/**
 * Text fields are form inputs (the longest a few thousand characters); the caps stop a request from
 * making the gateway buffer megabytes of field text or thousands of parts.
 */
const FIELD_LIMITS = { fields: 40, fieldSize: 64 * 1024, parts: 48, files: 1 } as const;

/**
 * Reads a multipart/form-data body into memory before the route's pipes run, so Contract validates the
 * text fields in `req.body` like any body, and the handler gets the file with @UploadedFile(). Built on
 * Nest's FileInterceptor (multer: drains a refused body, stops reading a file past its limit), with the
 * limit taken from the gateway config at start and the answers worded for people:
 * a file over the limit is 413 'The file is larger than N MB' (multer says 'File too large'); a body
 * that is not multipart is 415 rather than a silently missing file.
 */
export function MultipartInterceptor(spec: MultipartBody): Type<NestInterceptor> {
  @Injectable()
  class Multipart implements NestInterceptor {
    private readonly files: NestInterceptor;
    private readonly maxBytes: number;

    constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, NonNullable<MultipartSpec['maxBytes']>>) {
      this.maxBytes = spec.maxBytes ? config[spec.maxBytes] : 0;
      const Files =
        spec.file && spec.maxBytes
          ? FileInterceptor(spec.file, {
              limits: { ...FIELD_LIMITS, fileSize: this.maxBytes },
              // Browsers send UTF-8 file names; busboy would read them as latin1.
              defParamCharset: 'utf8',
            })
          : // A form of text fields only (the browser's FormData without a file): multer refuses a file part.
            NoFilesInterceptor({ limits: { ...FIELD_LIMITS, files: 0 } });
      this.files = new Files();
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = context.switchToHttp().getRequest<Request>();
      if (!req.is('multipart/form-data')) throw new UnsupportedMediaTypeException(NOT_MULTIPART);
      // Once multer has read the form: its text fields hold well-formed text only (as a JSON body's do).
      const checked: CallHandler = {
        handle: () => {
          refuseMalformedText(req.body);
          return next.handle();
        },
      };
      try {
        return await this.files.intercept(context, checked);
      } catch (err) {
        throw err instanceof PayloadTooLargeException
          ? new PayloadTooLargeException(fileTooLargeMessage(this.maxBytes))
          : err;
      }
    }
  }
  return mixin(Multipart);
}
