import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date. Safe to run from several processes at once: Kysely takes a
 * lock (an advisory lock on PostgreSQL) around the run.
 *
 * @returns the names of the migrations this call applied.
 * @throws the first migration error, after rolling that migration back.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
