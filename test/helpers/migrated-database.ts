import { after, before } from 'node:test';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import type { TestDatabase } from './databases.js';

/**
 * A migrated database for the tests of one `describe`: created and migrated in its `before`,
 * closed and dropped in its `after`. Call it at the top of the `describe`.
 * @param create - the dialect's `create` (helpers/databases.ts `dialects()`, or `sqliteDatabase`).
 * @returns the open database, to be called from the tests (it exists once `before` ran).
 */
export function useMigratedDatabase(create: () => TestDatabase | Promise<TestDatabase>): () => Database {
  let test: TestDatabase;
  let database: Database;
  before(async () => {
    test = await create();
    database = createDatabase(test.url);
    await migrateToLatest(database.db);
  });
  after(async () => {
    await database.close();
    await test.drop();
  });
  return () => database;
}
