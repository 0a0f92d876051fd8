import { formatZodIssues } from '@irp/proto';
import { BadRequestException, PipeTransform } from '@nestjs/common';
import { z } from 'zod';

/** Validates a body, query or param with a proto schema; a failure is a 400 naming each bad field. */
export class ZodValidationPipe<S extends z.ZodTypeAny> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new BadRequestException(formatZodIssues(parsed.error));
  }
}
