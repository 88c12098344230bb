import pino from 'pino';
import { startWorker } from '../../jobs/start-worker.js';
import { loggerOptions } from '../../logger.js';
import { type Command, limitPositionals, parseCommandArgs, withServices } from '../command.js';

const USAGE = ['worker'];

/**
 * `privacyctl worker`: runs the request worker alone (no HTTP) until SIGTERM or SIGINT, then
 * finishes the request in hand and exits 0. Settings: WORKER_POLL_MS, WORKER_LEASE_MS,
 * WORKER_MAX_ATTEMPTS (see README).
 */
export const workerCommand: Command = {
  usage: USAGE,
  async run(args) {
    const { positionals } = parseCommandArgs(args, {}, USAGE);
    limitPositionals(positionals, 0, USAGE);
    await withServices(async (services, config) => {
      const log = pino(loggerOptions(config.logLevel));
      const worker = startWorker(services, config.worker, log);
      log.info({ owner: worker.owner }, 'worker started');
      await new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      await worker.stop();
      log.info('worker stopped');
    });
  },
};
