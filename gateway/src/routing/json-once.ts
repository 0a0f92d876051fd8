import { StreamableFile } from '@nestjs/common';

/** The JSON text of answers sent as they are, by the answer object (a shared reading's, one for all). */
const serialised = new WeakMap<object, Buffer>();

/**
 * Answers `value` as its JSON text, serialised once per object: the callers of one shared reading (the staff
 * list: 8 MB of JSON at 20,000 stocks) get the same bytes instead of a `JSON.stringify` and an ETag hash each
 * (with 50 staff at once that was 50 of each). The text is what Express's `res.json` would send. Typed as
 * `value`, so the route's contract still checks what the handler answers; the bytes go out as a file would
 * (Nest pipes a StreamableFile), with their length and no ETag.
 */
export function jsonOnce<T extends object>(value: T): T {
  let bytes = serialised.get(value);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(value));
    serialised.set(value, bytes);
  }
  const file = new StreamableFile(bytes, { type: 'application/json; charset=utf-8', length: bytes.length });
  return file as unknown as T;
}
