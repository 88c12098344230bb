import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase } from './db/database.js';
import { prepareSchema } from './db/migrator.js';
import { createMetrics } from './metrics.js';
import type { Logger } from 'pino';
import { startWorker } from './jobs/start-worker.js';
import { openServices } from './services.js';

/**
 * Entry point: loadConfig → createDatabase → migrate (or check, MIGRATE_ON_START=false) →
 * createServices → buildApp → listen.
 * SIGTERM/SIGINT close the server (in-flight requests finish) and then the database.
 */
export async function main(): Promise<void> {
  const config = loadConfig();
  const database = createDatabase(config.databaseUrl);
  try {
    await prepareSchema(database.db, config.migrateOnStart);
  } catch (error) {
    // Nothing is listening yet: close the pool, or it would keep the process alive.
    await database.close();
    throw error;
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
  });
  const worker = config.worker.inServer ? startWorker(services, config.worker, app.log as unknown as Logger, metrics) : null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // In-flight requests and the request in the worker's hands finish; then the database closes.
    await Promise.all([app.close(), worker?.stop()]);
    await database.close();
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ host: config.host, port: config.port });
}

const isEntry = import.meta.url === `file://${process.argv[1]}`;
if (isEntry) {
  main().catch((error: unknown) => {
    // Before (or instead of) a logger: one plain line on stderr, the reason only.
    const reason =
      error instanceof ConfigError
        ? error.message
        : `failed to start: ${error instanceof Error ? error.message : 'unknown error'}`;
    process.stderr.write(`${reason}\n`);
    process.exit(1);
  });
}
