import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase } from './db/database.js';
import { prepareSchema } from './db/migrator.js';
import { type ProcessLock, SqliteFileInUse, lockDatabaseUrl } from './db/sqlite-process-lock.js';
import { createMetrics } from './metrics.js';
import type { Logger } from 'pino';
import { startWorker } from './jobs/start-worker.js';
import type { Worker } from './jobs/worker.js';
import { openServices } from './services.js';
import { logStartup } from './startup-log.js';
import { databaseStartFailure, listenFailure, StartupFailure } from './startup-failure.js';

/**
 * Entry point: loadConfig → createDatabase → the SQLite file's process lock (one `serve` or
 * `worker` per file, db/sqlite-process-lock.ts) → migrate (or check, MIGRATE_ON_START=false) →
 * createServices → buildApp → listen → only then the worker and the retention sweeper
 * (WORKER_IN_SERVER), so a backlog never delays the first answer.
 * SIGTERM/SIGINT at once stop claiming (work in hand stops at its next yield point; its lease
 * brings it back), close the server (in-flight requests finish), then the database.
 * @throws SqliteFileInUse when another `serve`/`worker` holds the SQLite file; StartupFailure
 *   (one sentence naming `DATABASE_URL` or `PORT`, never the URL) for a PostgreSQL that cannot
 *   be reached or refuses the login, and for a port in use; whatever else opening or migrating throws.
 */
export async function main(): Promise<void> {
  const config = loadConfig();
  const database = createDatabase(config.databaseUrl, { statementTimeoutMs: config.pgStatementTimeoutMs });
  let lock: ProcessLock | undefined;
  try {
    lock = lockDatabaseUrl(config.databaseUrl);
    await prepareSchema(database.db, config.migrateOnStart);
  } catch (error) {
    // Nothing is listening yet: close the pool, or it would keep the process alive.
    await database.close();
    lock?.release();
    throw databaseStartFailure(error, config.databaseUrl) ?? error;
  }
  const services = await openServices({ config, database });
  const metrics = createMetrics({ db: database.db, clock: services.clock });
  const app = await buildApp({
    services,
    metrics,
    logLevel: config.logLevel,
    bodyLimitBytes: config.bodyLimitBytes,
    protection: config.protection,
    metricsToken: config.metricsToken,
    consoleOidc: config.oidc?.console ?? null,
  });
  let worker: Worker | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // The worker stops at its next yield point; in-flight HTTP requests finish; then the database closes.
    await Promise.all([app.close(), worker?.stop()]);
    await database.close();
    lock?.release();
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  let listeningAt: string;
  try {
    listeningAt = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    closing = true;
    await app.close();
    await database.close();
    lock?.release();
    throw listenFailure(error, config.host, config.port) ?? error;
  }
  // Listening first: a backlog cannot delay the first answer (the worker yields between jobs).
  if (config.worker.inServer && !closing) worker = startWorker(services, config.worker, app.log as unknown as Logger, metrics);
  logStartup(app.log, { listeningAt, databaseUrl: config.databaseUrl, workerInServer: worker !== null });
}

const isEntry = import.meta.url === `file://${process.argv[1]}`;
if (isEntry) {
  main().catch((error: unknown) => {
    // Before (or instead of) a logger: one plain line on stderr, the reason only.
    const reason =
      error instanceof ConfigError || error instanceof SqliteFileInUse || error instanceof StartupFailure
        ? error.message
        : `failed to start: ${error instanceof Error ? error.message : 'unknown error'}`;
    process.stderr.write(`${reason}\n`);
    process.exit(1);
  });
}
