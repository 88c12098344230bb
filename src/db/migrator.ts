import { type Kysely, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * On PostgreSQL the migration bookkeeping tables must live in the connection's current schema:
 * Kysely otherwise looks for them across every schema and can find another tenant's.
 */
async function migrationTableSchema(db: Kysely<DB>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/**
 * Brings the schema up to date. Safe to run from several processes at once: Kysely takes a
 * lock (an advisory lock on PostgreSQL) around the run.
 *
 * @returns the names of the migrations this call applied.
 * @throws the first migration error, after rolling that migration back.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const schema = await migrationTableSchema(db);
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
