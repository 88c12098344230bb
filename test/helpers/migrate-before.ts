import { type Kysely, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from '../../src/db/migrations/index.js';
import type { DB } from '../../src/db/schema.js';

/**
 * Runs every one of the service's migrations whose name sorts before `first` (a name in
 * src/db/migrations/index.ts) on `db`: the schema as it was before `first` landed, so a test can
 * store rows as that schema held them and then run the rest (`migrateToLatest`). On PostgreSQL
 * the migration table lives in the test's own schema.
 * @throws the migration's error.
 */
export async function migrateBefore(db: Kysely<DB>, first: string): Promise<void> {
  if (!Object.hasOwn(migrations, first)) throw new Error(`no migration named ${first}`);
  const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < first));
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => earlier },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
