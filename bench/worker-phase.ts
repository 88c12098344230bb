/**
 * The worker's throughput: after the HTTP scenarios have filed requests, one `privacyctl worker`
 * process works the queue for the scenario duration; requests finished per second are counted
 * from the database. The service runs without its in-server worker during the HTTP scenarios,
 * so they measure the HTTP path alone (the production shape for load: `serve` and `worker` as
 * separate processes, docs/operations.md).
 */
import { join, resolve } from 'node:path';
import { countByStatus } from './databases.js';
import { SERVICE_NODE_FLAGS, startNode, stop } from './processes.js';

const ROOT = resolve(import.meta.dirname, '..');
const FINAL = ['completed', 'failed', 'rejected', 'canceled', 'action_required'];

/** What the worker did in the measured window. */
export interface WorkerResult {
  queuedAtStart: number;
  finished: number;
  perSec: number;
}

const finishedCount = (counts: Record<string, number>) => FINAL.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs one worker process on `databaseUrl` for `durationSec` seconds; logs to `logPath`. */
export async function measureWorker(databaseUrl: string, durationSec: number, logPath: string): Promise<WorkerResult> {
  const before = await countByStatus(databaseUrl);
  const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WORKER_POLL_MS: '50', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
  const worker = startNode('worker', [...SERVICE_NODE_FLAGS, join(ROOT, 'bin/privacyctl.js'), 'worker'], env, logPath);
  const started = Date.now();
  await sleep(durationSec * 1000);
  const after = await countByStatus(databaseUrl);
  const elapsed = (Date.now() - started) / 1000;
  await stop(worker);
  const finished = finishedCount(after) - finishedCount(before);
  return { queuedAtStart: before.queued ?? 0, finished, perSec: finished / elapsed };
}
