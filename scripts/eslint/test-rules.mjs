// Two lint rules that keep a green run honest, for jest, vitest, Playwright and node:test alike (issue 15):
// - no-focused-tests: `it.only`, `describe.only`, `test.only`, `fit`, `fdescribe`, node:test's `{ only: true }`
//   and `t.runOnly()` would silently run one test and leave out the rest;
// - no-undeclared-skip: a test may be skipped only through the helpers of scripts/testing/skip-conditions.js
//   with a condition declared there (`itWhen('ownBroker', broker !== null)(...)`, `{ skip: skipUnless('root',
//   isRoot) }`). Any other skip, todo or fixme is an error, a reason in free text included: `it.skip`, `xit`,
//   `describe.skip`, `test.skip` / `test.fixme` (Playwright, called in a test or declaring one),
//   `it.todo`, vitest's `it.skipIf` / `it.runIf`, `it.skip` not called directly (`(cond ? it : it.skip)(...)`),
//   node:test's `{ skip }` / `{ todo }` options and `t.skip()` / `t.todo()` on a test context.
// scripts/test/test-rules.test.mjs holds a valid and an invalid case for each form.
import { createRequire } from 'node:module';

const { SKIP_CONDITIONS, SKIP_HELPERS } = createRequire(import.meta.url)('../testing/skip-conditions.js');

const RUNNERS = new Set(['it', 'test', 'describe', 'suite', 'context']);
const FOCUSED = new Set(['fit', 'fdescribe', 'ftest']);
const SKIPPED = new Set(['xit', 'xdescribe', 'xtest']);
/** Properties of a runner that skip or leave a test unwritten. */
const SKIPPING = new Set(['skip', 'todo', 'fixme', 'skipIf', 'runIf']);
const DECLARED = Object.keys(SKIP_CONDITIONS).join(', ');
const HELP = `skip only through scripts/testing/skip-conditions.js with a declared condition (${DECLARED}), e.g. itWhen('ownBroker', broker !== null)(...) or { skip: skipUnless('root', isRoot) }`;

/** `it` of `it.skip`, `test` of `test.describe.skip`, `it` of `it.each([...]).skip`: the runner a chain starts from. */
function rootOf(node) {
  while (node) {
    if (node.type === 'MemberExpression') node = node.object;
    else if (node.type === 'CallExpression') node = node.callee;
    else if (node.type === 'ChainExpression') node = node.expression;
    else break;
  }
  return node?.type === 'Identifier' ? node.name : undefined;
}

/** The name of `a.b` or `a['b']` (undefined for a computed name that is not a string literal). */
export const propertyName = (member) =>
  member.computed
    ? member.property.type === 'Literal' && typeof member.property.value === 'string'
      ? member.property.value
      : undefined
    : member.property.type === 'Identifier'
      ? member.property.name
      : undefined;

/** A call that declares a test or suite: `test(...)`, `it(...)`, `describe.each(...)(...)`, `t.test(...)`. */
function declaresTest(call) {
  const callee = call.callee;
  if (callee.type === 'Identifier') return RUNNERS.has(callee.name);
  if (callee.type === 'MemberExpression')
    return RUNNERS.has(rootOf(callee)) || ['test', 'it', 'describe', 'suite'].includes(propertyName(callee));
  if (callee.type === 'CallExpression') return declaresTest(callee);
  return false;
}

/** The options object of a node:test declaration: `test('t', { skip, todo, only }, fn)`. */
const optionsOf = (call) =>
  declaresTest(call) ? call.arguments.filter((a) => a.type === 'ObjectExpression') : [];

const option = (objects, name) =>
  objects
    .flatMap((o) => o.properties)
    .find(
      (p) =>
        p.type === 'Property' &&
        ((p.key.type === 'Identifier' && !p.computed && p.key.name === name) ||
          (p.key.type === 'Literal' && p.key.value === name)),
    );

const isOff = (value) =>
  (value.type === 'Literal' && (value.value === false || value.value === null)) ||
  (value.type === 'Identifier' && value.name === 'undefined');

/** Is `name` the parameter of a function given to a test declaration (node:test's test context `t`)? */
function isTestContext(context, node) {
  const scope = (context.sourceCode ?? context.getSourceCode()).getScope?.(node) ?? context.getScope();
  let s = scope;
  while (s) {
    const variable = s.set.get(node.name);
    if (variable) {
      const def = variable.defs[0];
      if (def?.type !== 'Parameter') return false;
      const fn = def.node;
      return fn.params[0] === def.name && fn.parent?.type === 'CallExpression' && declaresTest(fn.parent);
    }
    s = s.upper;
  }
  return false;
}

/** The problem with a helper call's condition id, if any. */
function helperProblem(call) {
  const name = call.callee.type === 'Identifier' ? call.callee.name : undefined;
  if (!name || !Object.hasOwn(SKIP_HELPERS, name)) return undefined;
  const id = call.arguments[SKIP_HELPERS[name]];
  if (!id || id.type !== 'Literal' || typeof id.value !== 'string')
    return `${name}(…) must name its condition as a string literal, one of: ${DECLARED}.`;
  if (!Object.hasOwn(SKIP_CONDITIONS, id.value))
    return `"${id.value}" is not a declared skip condition (scripts/testing/skip-conditions.js: ${DECLARED}).`;
  return undefined;
}

/** Uses of the global (or imported) `fit` / `xit` ...: called, or passed on as in `(cond ? it : xit)`. */
function runnerReferences(context, names) {
  const { scopeManager } = context.sourceCode ?? context.getSourceCode();
  return scopeManager.scopes
    .flatMap((s) => s.references)
    .filter(
      (ref) =>
        names.has(ref.identifier.name) && (!ref.resolved || ref.resolved.defs[0]?.type === 'ImportBinding'),
    )
    .map((ref) => ref.identifier);
}

const noFocusedTests = {
  meta: {
    type: 'problem',
    docs: { description: 'A focused test would make a run skip every other test and still pass.' },
    schema: [],
  },
  create(context) {
    return {
      MemberExpression(node) {
        if (propertyName(node) === 'only' && RUNNERS.has(rootOf(node.object)))
          context.report({ node, message: 'Focused test (.only): make it a plain test before committing.' });
        else if (
          propertyName(node) === 'runOnly' &&
          node.object.type === 'Identifier' &&
          isTestContext(context, node.object)
        )
          context.report({ node, message: 'Focused tests (t.runOnly): remove it before committing.' });
      },
      CallExpression(node) {
        const only = option(optionsOf(node), 'only');
        if (only && !isOff(only.value))
          context.report({ node: only, message: 'Focused test ({ only }): remove it before committing.' });
      },
      'Program:exit'() {
        for (const id of runnerReferences(context, FOCUSED))
          context.report({
            node: id,
            message: `Focused test (${id.name}): make it a plain test before committing.`,
          });
      },
    };
  },
};

const noUndeclaredSkip = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'A test may be skipped only under a condition declared in scripts/testing/skip-conditions.js.',
    },
    schema: [],
  },
  create(context) {
    return {
      MemberExpression(node) {
        const name = propertyName(node);
        if (!SKIPPING.has(name)) return;
        if (RUNNERS.has(rootOf(node.object)))
          return context.report({ node, message: `Skipped or unwritten test (.${name}): ${HELP}.` });
        // node:test: t.skip() / t.todo() on a test context.
        if (
          (name === 'skip' || name === 'todo') &&
          node.object.type === 'Identifier' &&
          isTestContext(context, node.object)
        )
          context.report({
            node,
            message: `Skipped or unwritten test (${node.object.name}.${name}()): ${HELP}.`,
          });
      },
      CallExpression(node) {
        const problem = helperProblem(node);
        if (problem) context.report({ node, message: problem });
        const options = optionsOf(node);
        for (const name of ['skip', 'todo']) {
          const p = option(options, name);
          if (!p || isOff(p.value)) continue;
          const v = p.value;
          const throughHelper =
            name === 'skip' &&
            v.type === 'CallExpression' &&
            v.callee.type === 'Identifier' &&
            v.callee.name === 'skipUnless';
          if (!throughHelper)
            context.report({ node: p, message: `Skipped or unwritten test ({ ${name} }): ${HELP}.` });
        }
      },
      'Program:exit'() {
        for (const id of runnerReferences(context, SKIPPED))
          context.report({ node: id, message: `Skipped test (${id.name}): ${HELP}.` });
      },
    };
  },
};

export const testRules = {
  rules: { 'no-focused-tests': noFocusedTests, 'no-undeclared-skip': noUndeclaredSkip },
};
