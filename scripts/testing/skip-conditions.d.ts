// Types of skip-conditions.js (the one list of conditions under which a test may be skipped).
export type SkipConditionId = 'root' | 'ownBroker' | 'kubectl' | 'npmAudit';
export declare const SKIP_CONDITIONS: Readonly<Record<SkipConditionId, string>>;
export declare const SKIP_HELPERS: Readonly<Record<string, number>>;
export declare function conditionText(id: SkipConditionId): string;
export declare function skipReason(id: SkipConditionId): string;
export declare function conditionIn(text: string | undefined): string | undefined;
/** node:test: `{ skip: skipUnless('root', isRoot) }`. */
export declare function skipUnless(id: SkipConditionId, condition: boolean): false | string;
// Whatever jest's, vitest's or Playwright's `it`/`test`/`describe` take after the title.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RunnerArgs = any[];
type Runner = ((title: string, ...rest: RunnerArgs) => unknown) & {
  skip: (title: string, ...rest: RunnerArgs) => unknown;
};
/** jest (global it) or vitest (pass its `it`): `itWhen('ownBroker', broker !== null)('title', fn)`. */
export declare function itWhen<R extends Runner = Runner>(
  id: SkipConditionId,
  condition: boolean,
  runner?: R,
): R;
export declare function describeWhen<R extends Runner = Runner>(
  id: SkipConditionId,
  condition: boolean,
  runner?: R,
): R;
/** Playwright: `testWhen('root', isRoot, test)('title', async ({ page }) => ...)`. */
export declare function testWhen<R extends Runner>(id: SkipConditionId, condition: boolean, test: R): R;
/** Playwright, inside a test, describe or hook: `skipTestUnless('root', isRoot, test)`. */
export declare function skipTestUnless(
  id: SkipConditionId,
  condition: boolean,
  test: { skip: (condition: boolean, description: string) => void },
): void;
