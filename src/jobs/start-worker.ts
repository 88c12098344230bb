import type { Logger } from 'pino';
import type { WorkerConfig } from '../config.js';
import { DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS } from '../config/worker-settings.js';
import type { Services } from '../services.js';
import { REQUEST_HANDLERS } from '../workflows/request-types/request-handlers.js';
import type { Metrics } from '../metrics.js';
import { createRetentionSweeper } from './retention-sweeper.js';
import { startTaskOverdueSweep } from './task-overdue-sweep.js';
import { type Worker, createWorker } from './worker.js';
import { startDeliveryLoop } from './outbound-delivery-loop.js';
import { startDeadlineSweeper } from './deadline-events.js';
import { createTaskRunner } from './task-runner.js';
import { startMailLoop } from './mail-delivery-loop.js';
import { startDrpCallbackLoop } from './drp-callback-loop.js';
import { createMailer } from '../modules/privacy-center/mailer.js';

/**
 * Creates and starts the request worker on the services' database (in `serve`, or alone in
 * `privacyctl worker`), and beside it the retention sweeper: one sweep at once, then one every
 * `RETENTION_SWEEP_MS`, and the outbound delivery loop (PRODUCT §2.8: the outbox, sent after
 * commit), and the deadline sweep (`privacy_request.due_soon`/`.overdue`, jobs/deadline-events.ts,
 * every `RETENTION_SWEEP_MS`), and the data tasks' overdue sweep on the same schedule
 * (./task-overdue-sweep.ts), and the DRP status callbacks (./drp-callback-loop.ts). The request worker, the task runner, the delivery and mail loops
 * are woken by every commit on the database (db/wakeup.ts); `pollMs` is their safety net. `stop()` stops them all, after the work in hand. With
 * `metrics`, processed requests are counted (`privacy_requests_processed_total`), and sweeps
 * (`retention_sweeps_total`, `retention_sweep_last_success_timestamp_seconds`).
 */
export function startWorker(
  services: Services,
  config: WorkerConfig,
  log: Logger,
  metrics?: Pick<Metrics, 'requestsProcessed' | 'sweepEnded'> &
    Partial<Pick<Metrics, 'outboundAttempts' | 'outboundEndpointsDisabled'>>,
): Worker {
  const worker = createWorker({
    database: services.database,
    clock: services.clock,
    log,
    pseudonymKey: services.keys.pseudonymKey,
    handlers: REQUEST_HANDLERS,
    secretBox: services.secretBox,
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
    ...(metrics ? { metrics } : {}),
    options: { pollMs: config.pollMs, leaseMs: config.leaseMs, maxAttempts: config.maxAttempts },
  });
  const sweepBound = config.sweepStatementTimeoutMs ?? DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS;
  const sweeper = createRetentionSweeper({
    database: services.database,
    policies: services.policies,
    clock: services.clock,
    log,
    packageRetentionDays: config.packageRetentionDays,
    statementTimeoutMs: sweepBound,
    ...(metrics ? { metrics } : {}),
  });
  worker.start();
  sweeper.start(config.retentionSweepMs);
  const delivery = startDeliveryLoop(
    {
      db: services.database.db,
      secretBox: services.secretBox,
      allowPrivate: services.outboundAllowPrivateNetworks,
      clock: services.clock,
      maxInFlight: services.outboundLimits.maxInFlight,
      perEndpoint: services.outboundLimits.endpointConcurrency,
      burst: services.outboundLimits.endpointBurst,
      onAttempt: (result) => metrics?.outboundAttempts?.inc({ result }),
      onEndpointDisabled: () => metrics?.outboundEndpointsDisabled?.inc(),
      wakeups: services.database.wakeups,
    },
    config.pollMs,
    log,
  );
  const deadlines = startDeadlineSweeper(services.database.db, services.clock, config.retentionSweepMs, log, sweepBound);
  const overdue = startTaskOverdueSweep({
    database: services.database,
    clock: services.clock,
    log,
    intervalMs: config.retentionSweepMs,
    statementTimeoutMs: sweepBound,
  });
  // Data tasks the service runs itself (database connectors, PRODUCT §2.14); idle without such kinds.
  const tasks = createTaskRunner({
    database: services.database,
    clock: services.clock,
    log,
    taskResults: services.taskResults,
    keys: { secretBox: services.secretBox, connectors: services.connectors, pseudonymKey: services.keys.pseudonymKey },
    options: { pollMs: config.pollMs, leaseMs: config.leaseMs, maxAttempts: config.maxAttempts },
  });
  tasks.start();
  // DRP status callbacks (PRODUCT §2.19): changes swept and sent every WORKER_POLL_MS, at least 2 s (a sweep reads every record with a callback).
  const drpCallbacks = startDrpCallbackLoop(services.drpCallbacks, Math.max(config.pollMs, 2_000), log);
  // The privacy center's mails (PRODUCT §2.15): sent while SMTP_URL is set; else they wait in the outbox.
  const center = services.centerConfig;
  const mailer = center.smtpUrl ? createMailer(center.smtpUrl, center.smtpFrom) : null;
  const mails = mailer
    ? startMailLoop({
        db: services.database.db,
        clock: services.clock,
        mailer,
        secretBox: services.secretBox,
        controllers: services.controllers,
        requestResults: services.requestResults,
        database: services.database,
        publicBaseUrl: config.publicBaseUrl ?? 'http://127.0.0.1:8080',
        pollMs: config.pollMs,
        wakeups: services.database.wakeups,
        log,
      })
    : null;
  return {
    ...worker,
    async stop(): Promise<void> {
      await Promise.all([
        worker.stop(),
        sweeper.stop(),
        delivery.stop(),
        deadlines.stop(),
        overdue.stop(),
        tasks.stop(),
        drpCallbacks.stop(),
        mails?.stop(),
      ]);
      mailer?.close();
    },
  };
}
