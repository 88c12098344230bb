import type { Logger } from 'pino';
import type { WorkerConfig } from '../config.js';
import type { Services } from '../services.js';
import { REQUEST_HANDLERS } from './handlers/index.js';
import type { Metrics } from '../metrics.js';
import { createRetentionSweeper } from './retention-sweeper.js';
import { startTaskOverdueSweep } from './task-overdue-sweep.js';
import { type Worker, createWorker } from './worker.js';

/**
 * Creates and starts the request worker on the services' database (in `serve`, or alone in
 * `privacyctl worker`), and beside it the retention sweeper: one sweep at once, then one every
 * `RETENTION_SWEEP_MS`, and the data tasks' overdue sweep on the same schedule
 * (./task-overdue-sweep.ts). `stop()` stops all three, after the request and the sweep in hand. With
 * `metrics`, processed requests are counted (`privacy_requests_processed_total`), and sweeps
 * (`retention_sweeps_total`, `retention_sweep_last_success_timestamp_seconds`).
 */
export function startWorker(
  services: Services,
  config: WorkerConfig,
  log: Logger,
  metrics?: Pick<Metrics, 'requestsProcessed' | 'sweepEnded'>,
): Worker {
  const worker = createWorker({
    database: services.database,
    clock: services.clock,
    log,
    pseudonymKey: services.keys.pseudonymKey,
    handlers: REQUEST_HANDLERS,
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
    ...(metrics ? { metrics } : {}),
    options: { pollMs: config.pollMs, leaseMs: config.leaseMs, maxAttempts: config.maxAttempts },
  });
  const sweeper = createRetentionSweeper({
    database: services.database,
    policies: services.policies,
    clock: services.clock,
    log,
    packageRetentionDays: config.packageRetentionDays,
    ...(metrics ? { metrics } : {}),
  });
  worker.start();
  sweeper.start(config.retentionSweepMs);
  const overdue = startTaskOverdueSweep({
    database: services.database,
    clock: services.clock,
    log,
    intervalMs: config.retentionSweepMs,
  });
  return {
    ...worker,
    async stop(): Promise<void> {
      await Promise.all([worker.stop(), sweeper.stop(), overdue.stop()]);
    },
  };
}
