import { type Kysely, sql } from 'kysely';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import type { DB } from '../../src/db/schema.js';
import type { TestDatabase } from './databases.js';

/** A migrated, seeded database for index and plan tests, and how to close and remove it. */
export interface SeededDatabase {
  readonly database: Database;
  close(): Promise<void>;
}

/**
 * Creates a database of `dialect`, migrates it, runs `seed` on it, gathers PostgreSQL's planner
 * statistics (`ANALYZE`), then opens it again on a new connection, as a restarted server does
 * (SQLite gathers its statistics then): the plans the tests check are the ones a running
 * service with that data would get.
 */
export async function openSeededDatabase(
  dialect: { name: 'sqlite' | 'postgres'; create: () => Promise<TestDatabase> },
  seed: (db: Kysely<DB>) => Promise<void>,
): Promise<SeededDatabase> {
  const target = await dialect.create();
  const seeding = createDatabase(target.url);
  await migrateToLatest(seeding.db);
  await seed(seeding.db);
  if (dialect.name === 'postgres') await sql`analyze`.execute(seeding.db);
  await seeding.close();
  const database = createDatabase(target.url);
  return {
    database,
    close: async () => {
      await database.close();
      await target.drop();
    },
  };
}
