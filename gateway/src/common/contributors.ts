import { Provider, Type } from '@nestjs/common';

/**
 * A service that owns part of a composed answer (ADR 0004: the dashboards' columns, the admin stock
 * page's parts); `name` is what the answer lists in `unavailable` when it fails or is too slow.
 */
export interface Contributor {
  readonly name: string;
}

/** One contributor's part, or why there is none. */
export type Contributed<C extends Contributor, T> =
  | { readonly contributor: C; readonly ok: true; readonly value: T }
  | { readonly contributor: C; readonly ok: false; readonly reason: string };

/** How a composer asks: within what deadline, and where a missing part is logged (with `context`). */
export interface AskOptions {
  readonly deadlineMs: number;
  /** The composer's logger (createLogger). */
  readonly log: { warn(fields: object, message: string): void };
  /** The warning a missing part is logged with, e.g. 'dashboard contributor unavailable'. */
  readonly message: string;
  readonly context?: Readonly<Record<string, unknown>>;
}

class ContributorTimeout extends Error {}

/**
 * One contributor's part within the deadline (`ask` gets it too, to give its own request as a timeout).
 * Never rejects: a contributor that fails or is slower is logged and answered as not ok, because a
 * composed answer is more useful with a blank part than as an error.
 */
export async function askContributor<C extends Contributor, T>(
  contributor: C,
  ask: (contributor: C, deadlineMs: number) => Promise<T>,
  { deadlineMs, log, message, context }: AskOptions,
): Promise<Contributed<C, T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ContributorTimeout(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    return { contributor, ok: true, value: await Promise.race([ask(contributor, deadlineMs), timeout]) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.warn({ ...context, contributor: contributor.name, reason }, message);
    return { contributor, ok: false, reason };
  } finally {
    clearTimeout(timer);
  }
}

/** Every contributor's part, asked in parallel (askContributor), in registration order. */
export function askContributors<C extends Contributor, T>(
  contributors: readonly C[],
  ask: (contributor: C, deadlineMs: number) => Promise<T>,
  options: AskOptions,
): Promise<Array<Contributed<C, T>>> {
  return Promise.all(contributors.map((c) => askContributor(c, ask, options)));
}

/** The names of the contributors without a part, in registration order: the answer's `unavailable`. */
export const unavailableOf = (results: ReadonlyArray<Contributed<Contributor, unknown>>): string[] =>
  results.filter((r) => !r.ok).map((r) => r.contributor.name);

/**
 * An area's contributors as providers: each class, and `token` as the array of their instances in the
 * order listed. A service adds its gateway adapter class to the area's list and nothing else changes.
 */
export function contributorProviders<C extends Contributor>(token: symbol, classes: Type<C>[]): Provider[] {
  return [
    ...classes,
    { provide: token, useFactory: (...contributors: C[]) => contributors, inject: classes },
  ];
}
