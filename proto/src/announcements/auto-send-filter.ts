import { RE2JS } from 're2js';

/**
 * A stock's auto-send filter (spec sections 3 and 9): a pattern matched case-insensitively against polled
 * headlines; a match keeps the announcement out of automatic sending. The stocks service checks it on save
 * and the announcements service matches it, both here, with RE2 (re2js): its matching time grows linearly
 * with the headline, so no pattern (such as `^(\w+\s?)*$`) can stall the pollers the way a backtracking
 * `RegExp` would. RE2 has no look-around and no back-references; a pattern using them is refused on save
 * with the engine's reason.
 */

export const MAX_AUTO_SEND_FILTER_LENGTH = 200;
export const INVALID_AUTO_SEND_FILTER_MESSAGE = 'The auto-send filter is not a valid pattern';
export const AUTO_SEND_FILTER_TOO_LONG_MESSAGE = `The auto-send filter is longer than ${MAX_AUTO_SEND_FILTER_LENGTH} characters`;

/** Compiled filters by pattern: a poll decides many headlines of few filters. */
const compiled = new Map<string, RE2JS>();
const COMPILED_CACHE_SIZE = 256;

function compile(filter: string): RE2JS {
  let re = compiled.get(filter);
  if (!re) {
    re = RE2JS.compile(filter, RE2JS.CASE_INSENSITIVE);
    if (compiled.size >= COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
    compiled.set(filter, re);
  }
  return re;
}

/**
 * Why a filter cannot be saved (the 400's message), or null when it can: '' (no filter) or at most
 * MAX_AUTO_SEND_FILTER_LENGTH characters that RE2 compiles, e.g. 'The auto-send filter is not a valid
 * pattern: invalid or unsupported Perl syntax: `(?=`'.
 */
export function autoSendFilterProblem(filter: string): string | null {
  if (filter.length > MAX_AUTO_SEND_FILTER_LENGTH) return AUTO_SEND_FILTER_TOO_LONG_MESSAGE;
  if (!filter.trim()) return null;
  try {
    compile(filter);
    return null;
  } catch (err) {
    // The engine quotes the pattern with the case-insensitive flag it was compiled with: not the user's.
    const reason = String((err as Error).message ?? err)
      .replace(/^error parsing regexp: /, '')
      .replace('`(?i)', '`');
    return `${INVALID_AUTO_SEND_FILTER_MESSAGE}: ${reason}`;
  }
}

/**
 * True when a headline matches the stock's auto-send filter, i.e. it is NOT sent automatically (routine
 * forms stay out of subscribers' inboxes; a manual send still works). An empty filter matches nothing.
 * Whitespace is matched as a plain space (RE2's `\s` is ASCII only, feeds use non-breaking spaces). A stored
 * filter RE2 cannot take (saved before filters were checked with it, or too long) matches every headline:
 * what it was meant to hold back is unknown, so automatic sending waits for it to be fixed.
 */
export function matchesAutoSendFilter(headline: string, filter: string): boolean {
  if (!filter.trim()) return false;
  if (autoSendFilterProblem(filter) !== null) return true;
  return compile(filter).matcher(headline.replace(/\s/g, ' ')).find();
}
