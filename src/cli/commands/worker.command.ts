import pino from 'pino';
import { startWorker } from '../../jobs/start-worker.js';
import { loggerOptions } from '../../logger.js';
import { createMetrics } from '../../metrics.js';
import { type Command, limitPositionals, parseCommandArgs, withServices } from '../command.js';
import { startMetricsServer } from '../worker-metrics-server.js';

const USAGE = ['worker'];

/**
 * `privacyctl worker`: runs the request worker alone (no HTTP) until SIGTERM or SIGINT, then
 * finishes the request in hand and exits 0. Settings: WORKER_POLL_MS, WORKER_LEASE_MS,
 * WORKER_MAX_ATTEMPTS (see README). With WORKER_METRICS_PORT, serves its own Prometheus
 * `/metrics` on HOST:WORKER_METRICS_PORT (processed requests, retention sweeps, process metrics).
 */
export const workerCommand: Command = {
  usage: USAGE,
  async run(args) {
    const { positionals } = parseCommandArgs(args, {}, USAGE);
    limitPositionals(positionals, 0, USAGE);
    await withServices(async (services, config) => {
      const log = pino(loggerOptions(config.logLevel));
      // No database: the gauges read from the database are `serve`'s (docs/operations.md, Metrics).
      const metrics = createMetrics();
      const port = config.worker.metricsPort;
      const endpoint =
        port === undefined ? null : await startMetricsServer(metrics.registry, config.host, port, config.metricsToken);
      if (endpoint) log.info({ url: endpoint.url }, 'worker metrics listening');
      // Listen for the signals before saying "started": whoever waits for that line may stop us at once.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      const worker = startWorker(services, config.worker, log, metrics);
      log.info({ owner: worker.owner }, 'worker started');
      await stopped;
      await worker.stop();
      await endpoint?.close();
      log.info('worker stopped');
    });
  },
};
