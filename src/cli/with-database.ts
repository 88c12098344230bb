import { type Config, loadConfig } from '../config.js';
// Types only: the database layer and the services are loaded when a command opens them
// (withDatabase, withServices), never for help, a usage error or a command that needs neither.
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { CommandFailure } from './command.js';

/**
 * Opens the database named by `DATABASE_URL`, runs `fn`, and closes the database however `fn` ends.
 *
 * @throws ConfigError from loadConfig; whatever `fn` throws.
 */
export async function withDatabase<T>(
  fn: (database: Database, config: Config) => Promise<T>,
  options: { mustExist?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  const { createDatabase } = await import('../db/database.js');
  const database = createDatabase(config.databaseUrl, { ...options, statementTimeoutMs: config.pgStatementTimeoutMs });
  try {
    return await fn(database, config);
  } finally {
    await database.close();
  }
}

/**
 * Like {@link withDatabase}, after migrating to the latest schema (so a fresh database works;
 * with `MIGRATE_ON_START=false` it only checks the schema is current, and fails if not), with
 * the services wired as the server wires them.
 */
export async function withServices<T>(fn: (services: Services, config: Config) => Promise<T>): Promise<T> {
  return withDatabase(async (database, config) => {
    const [{ prepareSchema }, { openServices }] = await Promise.all([import('../db/migrator.js'), import('../services.js')]);
    await prepareSchema(database.db, config.migrateOnStart);
    return fn(await openServices({ config, database }), config);
  });
}

/**
 * For commands that only read (`audit verify`, `token list`, `policy get`, `integration list`):
 * like {@link withServices}, but never creates or migrates a database. A SQLite file that does
 * not exist, a database (or PostgreSQL schema) that was never migrated, or one behind this
 * release is refused: an empty new database would answer "intact, 0 entries" or "no tokens".
 *
 * @throws DatabaseMissingError, CommandFailure (never migrated), SchemaNotCurrentError.
 */
export async function withExistingServices<T>(fn: (services: Services, config: Config) => Promise<T>): Promise<T> {
  return withDatabase(
    async (database, config) => {
      const [{ pendingMigrations, SchemaNotCurrentError }, { migrations }] = await Promise.all([
        import('../db/migrator.js'),
        import('../db/migrations/index.js'),
      ]);
      const pending = await pendingMigrations(database.db);
      if (pending.length === Object.keys(migrations).length)
        throw new CommandFailure(
          'the database has no schema: it was never migrated (check DATABASE_URL; `privacyctl migrate` creates it)',
        );
      if (pending.length > 0) throw new SchemaNotCurrentError(pending);
      const { openServices } = await import('../services.js');
      return fn(await openServices({ config, database }), config);
    },
    { mustExist: true },
  );
}
