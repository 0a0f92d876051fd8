// Two lint rules that keep a green run honest (issue 7, item 10), for jest, vitest and Playwright alike:
// - no-focused-tests: `it.only`, `describe.only`, `test.only`, `fit`, `fdescribe` would silently run one
//   test and skip the rest;
// - no-unexplained-skip: a skipped test (`it.skip`, `xit`, `describe.skip`, `test.skip`, `it.todo` aside)
//   must say why, either as Playwright's reason argument (`test.skip(cond, 'why')`) or in a comment on the
//   line above that starts with `skip:` (`// skip: needs a mail server we do not have here`).
const RUNNERS = new Set(['it', 'test', 'describe', 'suite', 'context']);
const FOCUSED = new Set(['fit', 'fdescribe', 'ftest']);
const SKIPPED = new Set(['xit', 'xdescribe', 'xtest']);

/** The call `it.only.each([...])` makes before the one that runs the test: judged once, at the outer call. */
const innerOfChain = (node) => node.parent?.type === 'CallExpression' && node.parent.callee === node;

/** `it.only` / `test.describe.only` / `it.only.each` -> the runner name and the modifier. */
function modifierOf(callee) {
  const names = [];
  let node = callee;
  while (node) {
    if (node.type === 'MemberExpression') {
      if (node.property.type === 'Identifier') names.unshift(node.property.name);
      node = node.object;
    } else if (node.type === 'CallExpression') {
      node = node.callee; // it.each([...])(...)
    } else if (node.type === 'Identifier') {
      names.unshift(node.name);
      break;
    } else break;
  }
  if (!RUNNERS.has(names[0])) return { root: names[0], modifiers: [] };
  return { root: names[0], modifiers: names.slice(1) };
}

const noFocusedTests = {
  meta: {
    type: 'problem',
    docs: { description: 'A focused test would make a run skip every other test and still pass.' },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        if (innerOfChain(node)) return;
        const { root, modifiers } = modifierOf(node.callee);
        if (FOCUSED.has(root) || modifiers.includes('only'))
          context.report({
            node,
            message: `Focused test (${[root, ...modifiers].join('.')}): make it a plain test before committing.`,
          });
      },
    };
  },
};

const noUnexplainedSkip = {
  meta: {
    type: 'problem',
    docs: { description: 'A skipped test must say why.' },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    const explained = (node) => {
      const hasReason = node.arguments.some(
        (a, i) => i > 0 && a.type === 'Literal' && typeof a.value === 'string' && a.value.trim().length > 0,
      );
      if (hasReason) return true;
      const statement = node.parent?.type === 'ExpressionStatement' ? node.parent : node;
      return source.getCommentsBefore(statement).some((c) => /^\s*skip:\s*\S/.test(c.value));
    };
    return {
      CallExpression(node) {
        if (innerOfChain(node)) return;
        const { root, modifiers } = modifierOf(node.callee);
        const skipped = SKIPPED.has(root) || modifiers.includes('skip') || modifiers.includes('fixme');
        if (skipped && !explained(node))
          context.report({
            node,
            message:
              "Skipped test without a reason: give one (`test.skip(cond, 'why')` or a `// skip: why` comment above).",
          });
      },
    };
  },
};

export const testRules = {
  rules: { 'no-focused-tests': noFocusedTests, 'no-unexplained-skip': noUnexplainedSkip },
};
