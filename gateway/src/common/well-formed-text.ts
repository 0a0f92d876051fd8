import { BadRequestException } from '@nestjs/common';

/**
 * Text no field can hold as sent: a NUL character (PostgreSQL's text refuses it, so a save answered 500)
 * and a lone UTF-16 surrogate (not Unicode: UTF-8 cannot encode it, so it would be stored as U+FFFD, not as
 * sent). Both come only from a client that means harm or is broken; the gateway refuses them in any
 * string of a request's path parameters, query and body with a 400 naming where.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (a lone surrogate)';
  return undefined;
}

/** A path of a deeply nested value, cut in the middle: the message stays a line. */
const shortPath = (path: string) => (path.length > 100 ? `${path.slice(0, 50)}...${path.slice(-40)}` : path);

/**
 * The first string in `value` (keys included) that is not well-formed text, as `path: problem`, or
 * undefined. Walks without recursion: a body may be nested thousands of levels deep.
 */
export function malformedText(value: unknown, root: string): string | undefined {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length) {
    const [v, path] = pending.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return `${shortPath(path)}: ${problem}`;
    } else if (v && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        const at = path ? `${path}.${key}` : key;
        const keyProblem = problemOf(key);
        if (keyProblem) return `${shortPath(path) || 'a field name'}: ${keyProblem}`;
        pending.push([inner, at]);
      }
    }
  }
  return undefined;
}

/** A 400 naming the first string of `value` that is not well-formed text. */
export function refuseMalformedText(value: unknown): void {
  const malformed = malformedText(value, '');
  if (malformed) throw new BadRequestException(malformed);
}
