// The one list of environment conditions under which a test may be skipped, and the helpers that skip
// through them. Any other skip, todo or focus fails `make test` (scripts/test.mjs) and `make lint`
// (scripts/eslint/test-rules.mjs). A skipped test carries `[skip-condition <id>: <text>]` in its title or
// its skip reason, which is how scripts/test.mjs knows, from each runner's results, that it was declared.
// Plain CommonJS with types beside it (skip-conditions.d.ts), so jest (ts-jest), node:test (.mjs),
// Playwright and vitest all import this same file.
//
// To add a condition: one entry here, with a text that says what the machine lacks (README.md, Testing).
'use strict';

/** id -> what the environment must have for the test to run. */
const SKIP_CONDITIONS = Object.freeze({
  root: 'needs root',
  ownBroker: 'needs the broker this run started',
  kubectl: 'needs kubectl',
  npmAudit: "needs the npm registry's audit endpoint",
});

const MARKER = /\[skip-condition ([A-Za-z][\w-]*)(?::[^\]]*)?\]/;

function conditionText(id) {
  if (!Object.prototype.hasOwnProperty.call(SKIP_CONDITIONS, id))
    throw new Error(
      `"${id}" is not a declared skip condition (scripts/testing/skip-conditions.js: ${Object.keys(SKIP_CONDITIONS).join(', ')})`,
    );
  return SKIP_CONDITIONS[id];
}

/** The text a skipped test carries: `[skip-condition ownBroker: needs the broker this run started]`. */
function skipReason(id) {
  return `[skip-condition ${id}: ${conditionText(id)}]`;
}

/** The declared condition id in a skipped test's title or reason, or undefined. */
function conditionIn(text) {
  return typeof text === 'string' ? MARKER.exec(text)?.[1] : undefined;
}

/** node:test: `test('title', { skip: skipUnless('root', isRoot) }, fn)`. */
function skipUnless(id, condition) {
  const reason = skipReason(id);
  return condition ? false : reason;
}

/** Declares with `runner` when the condition holds, else with `runner.skip` and the reason in the title. */
function declaringWhen(id, condition, runner) {
  const reason = skipReason(id);
  if (condition) return runner;
  return (title, ...rest) => runner.skip(`${title} ${reason}`, ...rest);
}

/** jest (global `it`) or vitest (pass its `it`): `itWhen('ownBroker', broker !== null)('title', fn)`. */
function itWhen(id, condition, runner = globalThis.it) {
  return declaringWhen(id, condition, runner);
}

/** jest (global `describe`) or vitest (pass its `describe`). */
function describeWhen(id, condition, runner = globalThis.describe) {
  return declaringWhen(id, condition, runner);
}

/** Playwright, declaring: `testWhen('root', isRoot, test)('title', async ({ page }) => ...)`. */
function testWhen(id, condition, playwrightTest) {
  return declaringWhen(id, condition, playwrightTest);
}

/** Playwright, inside a test, a describe or a hook: `skipTestUnless('root', isRoot, test)`. */
function skipTestUnless(id, condition, playwrightTest) {
  playwrightTest.skip(!condition, skipReason(id));
}

module.exports = {
  SKIP_CONDITIONS,
  conditionText,
  skipReason,
  conditionIn,
  skipUnless,
  itWhen,
  describeWhen,
  testWhen,
  skipTestUnless,
  /** The helpers' names and which argument names the condition: what the lint rule checks. */
  SKIP_HELPERS: Object.freeze({ skipUnless: 0, itWhen: 0, describeWhen: 0, testWhen: 0, skipTestUnless: 0 }),
};
