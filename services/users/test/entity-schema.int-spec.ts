import { entitySchemaDifferences } from '@irp/platform/testing';
import { usersService } from '../src/app.module';

// docs/adr/0012: every table has an entity that says what the migrations made, so the row types derived from
// the entities are the database's own.
it('the entities match the migrated schema: TypeORM plans no change', async () => {
  expect(await entitySchemaDifferences(usersService)).toEqual([]);
});
