import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { CommandFailure } from '../command.js';
import { withDatabase } from '../with-database.js';
import { commandWithoutArguments } from '../flag-args.js';

// The worker's modules (the services, the jobs, pino, the metrics) are loaded when it runs, once
// its signal handlers are in place: `worker --help` and a usage error load none (command-table.ts).

/** The SQLite file's process lock (db/sqlite-process-lock.ts); a refusal becomes exit 1 with its message. */
async function lockOrFail(url: string) {
  const { SqliteFileInUse, lockDatabaseUrl } = await import('../../db/sqlite-process-lock.js');
  try {
    return lockDatabaseUrl(url);
  } catch (error) {
    if (error instanceof SqliteFileInUse) throw new CommandFailure(error.message);
    throw error;
  }
}

/**
 * Migrates (or checks), serves the worker's own `/metrics` when WORKER_METRICS_PORT is set,
 * starts the worker and the sweeper, and stops them at SIGTERM/SIGINT.
 */
async function runUntilSignal(database: Database, config: Config): Promise<void> {
  // Listen for the signals before anything slow (migrations, services, the metrics port): a stop
  // that comes while the worker is still starting, or whoever waits for "started" and stops us at
  // once, ends it cleanly (exit 0) instead of killing it half-way with the signal's default action.
  let stopRequested = false;
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      stopRequested = true;
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  const [
    { default: pino },
    { prepareSchema },
    { startWorker },
    { loggerOptions },
    { createMetrics },
    { openServices },
    { startMetricsServer },
  ] = await Promise.all([
    import('pino'),
    import('../../db/migrator.js'),
    import('../../jobs/start-worker.js'),
    import('../../logger.js'),
    import('../../metrics.js'),
    import('../../services.js'),
    import('../worker-metrics-server.js'),
  ]);
  await prepareSchema(database.db, config.migrateOnStart);
  const services = await openServices({ config, database });
  const log = pino(loggerOptions(config.logLevel));
  // No database: the gauges read from the database are `serve`'s (docs/operations.md, Metrics).
  const metrics = createMetrics();
  const port = config.worker.metricsPort;
  const endpoint = port === undefined ? null : await startMetricsServer(metrics.registry, config.host, port, config.metricsToken);
  if (endpoint) log.info({ url: endpoint.url }, 'worker metrics listening');
  if (stopRequested) {
    await endpoint?.close();
    log.info('worker stopped before it started');
    return;
  }
  const worker = startWorker(services, config.worker, log, metrics);
  log.info({ owner: worker.owner }, 'worker started');
  await stopped;
  await worker.stop();
  await endpoint?.close();
  log.info('worker stopped');
}

/**
 * `privacyctl worker`: runs the request worker alone (no HTTP) until SIGTERM or SIGINT, then
 * stops at once (a request in hand stops at its next yield point and is given back) and exits 0.
 * On SQLite it first takes the file's process lock: exit 1 when `serve` or another worker holds
 * it (PostgreSQL takes any number of workers). Settings: WORKER_POLL_MS, WORKER_LEASE_MS,
 * WORKER_MAX_ATTEMPTS (see README). With WORKER_METRICS_PORT, serves its own Prometheus
 * `/metrics` on HOST:WORKER_METRICS_PORT (processed requests, retention sweeps, process metrics).
 */
export const workerCommand = commandWithoutArguments(
  'worker',
  'runs the request worker alone, without HTTP, until SIGTERM or SIGINT: processes privacy requests, delivers outbound events and runs the retention sweeper. On SQLite only one serve or worker may hold the file; on PostgreSQL any number. Settings: WORKER_POLL_MS, WORKER_LEASE_MS, WORKER_MAX_ATTEMPTS, WORKER_METRICS_PORT.',
  () =>
    withDatabase(async (database, config) => {
      const lock = await lockOrFail(config.databaseUrl);
      try {
        await runUntilSignal(database, config);
      } finally {
        // Given back once the worker has stopped; the OS gives it back too if the process dies.
        lock.release();
      }
    }),
);
