// The one-way-to-the-database lint rule (scripts/eslint/database-rules.mjs) under ESLint's RuleTester.
import { describe, it } from 'node:test';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { databaseRules } from '../eslint/database-rules.mjs';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});
const outside = (code, method) => ({
  code,
  errors: [{ message: new RegExp(`^\\.${method}\\(…\\) outside a repository`) }],
});
const imported = (code, name) => ({
  code,
  errors: [{ message: new RegExp(`^${name} from .* outside a repository`) }],
});

tester.run('sql-only-in-repositories', databaseRules.rules['sql-only-in-repositories'], {
  valid: [
    // a use case: repositories, a unit of work, the outbox
    'await this.units.run(async (tx) => { await this.stocks.save(stock, tx); await this.outbox.add(tx, topic, id, e); });',
    'const stock = await this.stocks.findById(id);',
    // the transaction handle's type, and typeorm's operators, are fine
    "import type { DataSource } from 'typeorm';",
    "import { type DataSource, In } from 'typeorm';",
    "import { EntityManager, In, IsNull } from 'typeorm';",
    "import { TypeOrmModule } from '@nestjs/typeorm';",
    // a query string, a property named query, a URL's query
    'const q = req.query; const u = new URL(s).searchParams.get("query");',
    'const query = (sql) => sql; query("x");',
  ],
  invalid: [
    outside('await this.dataSource.query(`SELECT 1`);', 'query'),
    outside('await m.query("UPDATE x SET y = 1");', 'query'),
    outside('await this.ds?.query("SELECT 1");', 'query'),
    outside("this.repo.createQueryBuilder('s').where('s.id = :id', { id });", 'createQueryBuilder'),
    outside('m.getRepository(UserEntity).findOne({ where: { id } });', 'getRepository'),
    outside('await this.dataSource.transaction(async (m) => work(m));', 'transaction'),
    outside('await m.withRepository(repo).find();', 'withRepository'),
    outside("await ds['query']('SELECT 1');", 'query'),
    imported("import { DataSource } from 'typeorm';", 'DataSource'),
    imported("import { DataSource as D, In } from 'typeorm';", 'DataSource'),
    imported("import { InjectRepository } from '@nestjs/typeorm';", 'InjectRepository'),
    imported("import { InjectDataSource } from '@nestjs/typeorm';", 'InjectDataSource'),
  ],
});
