/**
 * How a worker attempt ends early (src/jobs/worker.ts). None carries data in its message: only
 * the class name of a failure is stored ({@link failureReason}).
 */

/** The worker is stopping: the attempt is abandoned at a yield point and the request given back. */
export class WorkerStopping extends Error {}

/**
 * An erasure committed, but SQLite's WAL could not be emptied (another process held an older
 * read snapshot throughout): the attempt fails and is retried; the next one finds the committed
 * report and only checkpoints again (src/jobs/erasure-step.ts).
 */
export class WalCheckpointBusy extends Error {
  override name = 'WalCheckpointBusy';
}

/** A failure reason safe to store and show: the error's class, never its message (it may quote data). */
export function failureReason(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}
