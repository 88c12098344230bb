import { CompiledQuery, type DatabaseConnection, SqliteDialect, SqliteDriver } from 'kysely';
import { TurnTakingLock } from './sqlite-turns.js';

/**
 * SQLite transactions that take the write lock at BEGIN (`BEGIN IMMEDIATE`). A deferred
 * transaction that reads first and writes later fails at once with SQLITE_BUSY_SNAPSHOT when
 * another process committed in between (the busy timeout does not apply); an immediate one
 * waits for the lock (busy_timeout) and then sees the latest data. The connection is handed from
 * one caller to the next in turns of the event loop ({@link TurnTakingLock}).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  /** Taken before Kysely's own mutex, which then never has a waiter (db/sqlite-turns.ts). */
  private readonly turns = new TurnTakingLock();

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.lock();
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    this.turns.unlock();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * On SQLITE_FULL or an I/O error SQLite may have rolled the transaction back itself; Kysely's
   * ROLLBACK then fails ("no transaction is active") and that error would hide the real one.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!(error instanceof Error && /no transaction is active/i.test(error.message))) throw error;
    }
  }
}

/** Kysely's SQLite dialect with {@link ImmediateSqliteDriver}. */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(settings);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.settings);
  }
}
