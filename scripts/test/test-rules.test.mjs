// The lint rules that keep a green run honest (scripts/eslint/test-rules.mjs), under ESLint's RuleTester:
// a valid and an invalid case for every form of skip, todo and focus in jest, vitest, Playwright and node:test.
import { describe, it } from 'node:test';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { testRules } from '../eslint/test-rules.mjs';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});
const skip = testRules.rules['no-undeclared-skip'];
const focus = testRules.rules['no-focused-tests'];
const undeclared = (code) => ({
  code,
  errors: [{ message: /skip only through scripts\/testing\/skip-conditions\.js/ }],
});

tester.run('no-undeclared-skip', skip, {
  valid: [
    // jest / vitest through the helpers, with declared conditions
    "itWhen('ownBroker', broker !== null)('restarts the broker', async () => {});",
    "describeWhen('root', isRoot)('as root', () => {});",
    "import { it } from 'vitest'; itWhen('root', isRoot, it)('as root', () => {});",
    // Playwright through the helpers
    "testWhen('root', isRoot, test)('as root', async ({ page }) => {});",
    "test('as root', async ({ page }) => { skipTestUnless('root', isRoot, test); });",
    // node:test through the helper, and options that skip nothing
    "test('as root', { skip: skipUnless('root', isRoot) }, () => {});",
    "test('plain', { skip: false, todo: undefined, timeout: 5000 }, () => {});",
    "test('ctx', (t) => { t.diagnostic('x'); });",
    // not tests: RTK Query's skip option, a method named skip on something else
    'useStockQuery(ticker, { skip: !ticker });',
    'cursor.skip(10);',
    'const skip = page * itemsPerPage; if (skip > 0) skip--;',
    // a runner's `.each` is fine
    "it.each([1, 2])('n %s', (n) => {});",
  ],
  invalid: [
    undeclared("it.skip('later', () => {});"),
    undeclared("describe.skip('later', () => {});"),
    undeclared("test.skip('later', () => {});"),
    undeclared("it.skip.each([1])('n %s', () => {});"),
    undeclared("xit('later', () => {});"),
    undeclared("xdescribe('later', () => {});"),
    undeclared("xtest('later', () => {});"),
    undeclared("import { xit } from '@jest/globals'; xit('later', () => {});"),
    undeclared("it.todo('write me');"),
    undeclared("test.todo('write me');"),
    // a free-text reason is no longer enough
    undeclared("// skip: no mail server here\nit.skip('mails', () => {});"),
    // Playwright: declaring, inside a test, conditional with a reason, fixme, describe.skip
    undeclared("test.skip(({ browserName }) => browserName === 'webkit', 'why');"),
    undeclared("test('x', async ({ page }) => { test.skip(); });"),
    undeclared("test('x', async ({ page }) => { test.skip(isCI, 'too slow on CI'); });"),
    undeclared("test.fixme('broken', async () => {});"),
    undeclared("test('x', async () => { test.fixme(); });"),
    undeclared("test.describe.skip('group', () => {});"),
    undeclared("test.describe.fixme('group', () => {});"),
    // conditional skips where it.skip is not called directly
    undeclared("(broker ? it : it.skip)('restarts the broker', async () => {});"),
    undeclared("const maybe = broker ? it : it.skip; maybe('restarts', () => {});"),
    undeclared("(isRoot ? it : xit)('as root', () => {});"),
    // vitest
    undeclared("it.skipIf(process.platform === 'win32')('posix', () => {});"),
    undeclared("it.runIf(isRoot)('as root', () => {});"),
    undeclared("describe.skipIf(ci)('local only', () => {});"),
    undeclared("test.skipIf(ci)('local only', () => {});"),
    // node:test options and test context
    undeclared("test('as root', { skip: process.getuid() !== 0 && 'needs root' }, () => {});"),
    undeclared("test('later', { skip: true }, () => {});"),
    undeclared("it('later', { skip: 'why' }, () => {});"),
    undeclared("describe('later', { skip: true }, () => {});"),
    undeclared("test('later', { todo: true }, () => {});"),
    undeclared("test('later', { todo: 'write the assertions' }, () => {});"),
    undeclared("test('ctx', (t) => { t.skip('no broker'); });"),
    undeclared("test('ctx', (t) => { t.todo(); });"),
    undeclared("test('outer', async (t) => { await t.test('inner', { skip: true }, () => {}); });"),
    undeclared("describe('d', () => { it('ctx', (ctx) => { ctx.skip(); }); });"),
    // the helpers with an undeclared or computed condition
    {
      code: "itWhen('needsMars', onMars)('far away', () => {});",
      errors: [{ message: /"needsMars" is not a declared skip condition/ }],
    },
    {
      code: "test('t', { skip: skipUnless('sunny', sunny) }, () => {});",
      errors: [{ message: /"sunny" is not a declared skip condition/ }],
    },
    {
      code: "test('t', async () => { skipTestUnless('sunny', sunny, test); });",
      errors: [{ message: /"sunny" is not a declared skip condition/ }],
    },
    {
      code: "describeWhen(id, cond)('group', () => {});",
      errors: [{ message: /must name its condition as a string literal/ }],
    },
    {
      code: "testWhen(`root`, isRoot, test)('x', () => {});",
      errors: [{ message: /must name its condition as a string literal/ }],
    },
  ],
});

const focused = (code, message = /Focused test/) => ({ code, errors: [{ message }] });

tester.run('no-focused-tests', focus, {
  valid: [
    "it('plain', () => {});",
    "test('plain', { only: false }, () => {});",
    "test.describe('group', () => { test('plain', async () => {}); });",
    'const only = true; list.only(1);',
  ],
  invalid: [
    focused("it.only('this one', () => {});"),
    focused("describe.only('this group', () => {});"),
    focused("test.only('this one', async () => {});"),
    focused("test.describe.only('this group', () => {});"),
    focused("it.only.each([1])('n %s', () => {});"),
    focused("it.concurrent.only('this one', async () => {});"),
    focused("fit('this one', () => {});"),
    focused("fdescribe('this group', () => {});"),
    focused("(debugging ? it.only : it)('this one', () => {});"),
    // node:test
    focused("test('this one', { only: true }, () => {});"),
    focused("it('this one', { only: 1 }, () => {});"),
    focused("test('outer', (t) => { t.runOnly(true); });", /Focused tests \(t\.runOnly\)/),
  ],
});
