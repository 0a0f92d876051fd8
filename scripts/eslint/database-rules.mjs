// One way to the database (docs/architecture.md, issue 17): a service reaches its tables through its
// repositories (`*.repository.ts`), and only there is SQL written or TypeORM's query API called.
// dependency-cruiser sees imports, not calls, so this rule looks at the code:
// - calls of `.query(…)`, `.createQueryBuilder(…)`, `.getRepository(…)`, `.transaction(…)`, `.withRepository(…)`
//   and `.getTreeRepository(…)` (the ways into SQL and TypeORM's query API, on a DataSource, an
//   EntityManager or a Repository alike);
// - importing `DataSource` from typeorm or `InjectDataSource` / `InjectRepository` / `InjectEntityManager`
//   from @nestjs/typeorm (holding a connection to query through).
// A use case opens a transaction with the platform's `UnitOfWork.run(tx => …)` and hands `tx` to
// repositories and `Outbox.add`. Where the rule does not apply (migrations, seeds, the platform, tests,
// and the temporary exceptions) is eslint.config.mjs's `files` / `ignores`, each with its reason.
// It cannot see every call on an EntityManager (`tx.find(…)` needs type information); review covers those.
// scripts/test/database-rules.test.mjs holds the valid and invalid cases.

import { propertyName } from './test-rules.mjs';

/** The methods that run SQL or open TypeORM's query API. */
export const QUERY_METHODS = new Set([
  'query',
  'createQueryBuilder',
  'getRepository',
  'getTreeRepository',
  'withRepository',
  'transaction',
]);

/** Imports that hand a file a connection to query through. */
const CONNECTIONS = {
  typeorm: new Set(['DataSource']),
  '@nestjs/typeorm': new Set(['InjectDataSource', 'InjectRepository', 'InjectEntityManager']),
};

const HELP =
  'SQL and TypeORM queries belong in a repository (*.repository.ts); a use case calls repositories and opens a transaction with UnitOfWork.run (docs/architecture.md, "One way to the database")';

const sqlOnlyInRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL and TypeORM query calls only inside *.repository.ts files.' },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression') return;
        const name = propertyName(callee);
        if (name && QUERY_METHODS.has(name))
          context.report({ node: callee.property, message: `.${name}(…) outside a repository: ${HELP}.` });
      },
      ImportDeclaration(node) {
        const forbidden = CONNECTIONS[node.source.value];
        if (!forbidden || node.importKind === 'type') return;
        for (const s of node.specifiers) {
          if (s.type !== 'ImportSpecifier' || s.importKind === 'type') continue;
          const imported = s.imported.type === 'Identifier' ? s.imported.name : s.imported.value;
          if (forbidden.has(imported))
            context.report({
              node: s,
              message: `${imported} from ${node.source.value} outside a repository: ${HELP}.`,
            });
        }
      },
    };
  },
};

export const databaseRules = { rules: { 'sql-only-in-repositories': sqlOnlyInRepositories } };
