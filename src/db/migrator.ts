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

async function createMigrator(db: Kysely<DB>): Promise<Migrator> {
  const schema = await migrationTableSchema(db);
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/** Thrown at start with `MIGRATE_ON_START=false` while the schema is behind this release. */
export class SchemaNotCurrentError extends Error {
  constructor(readonly pending: string[]) {
    super(`database schema is not current: ${pending.length} migration(s) pending; run \`privacyctl migrate\` first`);
    this.name = 'SchemaNotCurrentError';
  }
}

/** The names of the migrations this release has and the database has not run yet, in order. */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const migrator = await createMigrator(db);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * What `serve` and `worker` do with the schema at start (docs/operations.md, "Running on many
 * machines"): migrate it, or, when migrations are a separate deploy step, check it is current.
 *
 * @param migrate - `MIGRATE_ON_START`.
 * @throws SchemaNotCurrentError when `migrate` is false and a migration is pending.
 */
export async function prepareSchema(db: Kysely<DB>, migrate: boolean): Promise<void> {
  if (migrate) {
    await migrateToLatest(db);
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0) throw new SchemaNotCurrentError(pending);
}

/**
 * Brings the schema up to date. Safe to run from several processes at once: Kysely takes a
 * lock (an advisory lock on PostgreSQL) around the run.
 *
 * @returns the names of the migrations this call applied.
 * @throws the first migration error, after rolling that migration back.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return migrateOn(db);
  // PostgreSQL: migrations run on one session without the API's statement_timeout (an index on
  // a large table takes what it takes), and the session gets its bound back afterwards.
  return db.connection().execute(async (session) => {
    const { rows } = await sql<{ bound: string }>`select current_setting('statement_timeout') as bound`.execute(session);
    await sql`set statement_timeout = 0`.execute(session);
    try {
      return await migrateOn(session);
    } finally {
      await sql`select set_config('statement_timeout', ${rows[0]?.bound ?? '0'}, false)`.execute(session);
    }
  });
}

async function migrateOn(db: Kysely<DB>): Promise<string[]> {
  const migrator = await createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
