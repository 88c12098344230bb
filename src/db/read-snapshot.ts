import { type Kysely, sql } from 'kysely';
import { isPostgres } from './locking.js';
import type { DB } from './schema.js';

/**
 * Runs `read` so that every statement it makes sees one snapshot of the database: what another
 * process commits meanwhile is invisible to all of them, or visible to all of them. For reads that
 * must agree with each other (the audit chain's entries and its head).
 *
 * - PostgreSQL: a `REPEATABLE READ` `READ ONLY` transaction (the snapshot is taken at its first
 *   statement; it takes no locks and never waits for writers).
 * - SQLite: a deferred `BEGIN` on the connection (not the service's `BEGIN IMMEDIATE`, which would
 *   take the write lock): the first SELECT starts a read transaction on WAL, which sees the
 *   database as of that moment until `COMMIT`; writers in other processes go on meanwhile.
 *
 * `read` must only read. Whatever it throws is rethrown after the transaction ended.
 */
export async function withReadSnapshot<T>(db: Kysely<DB>, read: (snapshot: Kysely<DB>) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
  return db.connection().execute(async (connection) => {
    await sql`begin deferred`.execute(connection);
    try {
      const result = await read(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}
