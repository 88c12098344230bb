import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { nextTurn } from '../lib/yielding.js';
import { DeferredWriteSet, type UnitOfWork } from './unit-of-work.js';
import { EXPECTED_UNIT_WAIT_MS, ExpectedUnits } from './expected-units.js';
import { committed, notifyAtCommit } from './wakeup.js';

/**
 * Runs `work` as one unit of work (db/unit-of-work.ts) and resolves with its result once its
 * transaction has committed.
 */
export type Transact = <T>(work: (unit: UnitOfWork) => Promise<T>) => Promise<T>;

/** A {@link Transact} that can be told of a unit of work on its way ({@link WriteBatcher.expect}). */
export interface WriteBatcher extends Transact {
  /**
   * Announces a unit of work its caller will submit soon, once what it waits for off the event
   * loop is done (a DRP exercise's Ed25519 check on the thread pool). A batch about to start
   * with room left waits for the units announced before it, at most {@link EXPECTED_UNIT_WAIT_MS}
   * ({@link createWriteBatcher}, "Expected units"). Call the returned function when the unit is
   * submitted or will not be; calls after the first do nothing.
   */
  expect(): () => void;
}

/** How a {@link createWriteBatcher} batches. */
export interface WriteBatcherOptions {
  /** The most units of work one commit carries ({@link MAX_BATCH}). */
  maxBatch?: number;
  /** Batches in flight at once (1: each batch starts when the previous one has committed). */
  concurrency?: number;
  /**
   * How many times a batch, or a unit, aborted by a deadlock or serialization failure
   * ({@link isTransientConflict}) is run in all before its callers get that error ({@link CONFLICT_ATTEMPTS}).
   */
  attempts?: number;
  /** The longest a batch waits for units announced before it, ms ({@link EXPECTED_UNIT_WAIT_MS}). */
  expectedWaitMs?: number;
}

interface Pending {
  work: (unit: UnitOfWork) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Times this unit was aborted on its own by a deadlock or serialization failure. */
  conflicts: number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The most units of work one commit carries. */
export const MAX_BATCH = 64;

/** Default for {@link WriteBatcherOptions.attempts}. */
export const CONFLICT_ATTEMPTS = 5;

/**
 * True for PostgreSQL SQLSTATE 40P01 (deadlock_detected) and 40001 (serialization_failure): the
 * server aborted the statement (or transaction) to break a cycle of waits, not because of the
 * data; running the same work again is the documented remedy (PostgreSQL manual §13.6).
 */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

async function runInSavepoint(tx: Transaction<DB>, deferred: DeferredWriteSet, item: Pending): Promise<Outcome> {
  const mark = deferred.mark();
  await sql`savepoint unit_of_work`.execute(tx);
  try {
    const value = await item.work(deferred.unit(tx));
    await sql`release savepoint unit_of_work`.execute(tx);
    return { ok: true, value };
  } catch (error) {
    // Undo this unit only; the others in the batch keep their writes. If SQLite already rolled
    // the whole transaction back (SQLITE_FULL, an I/O error), the savepoint is gone: the batch
    // fails with this unit's error, which names the real cause.
    try {
      await sql`rollback to savepoint unit_of_work`.execute(tx);
      await sql`release savepoint unit_of_work`.execute(tx);
    } catch {
      throw error;
    }
    deferred.rollback(mark);
    return { ok: false, error };
  }
}

/** A unit of an optimistic batch threw: the batch transaction is rolled back (see `commitBatch`). */
class UnitFailure extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super('a unit of the batch failed');
  }
}

async function runUnit(tx: Transaction<DB>, deferred: DeferredWriteSet, item: Pending, index: number): Promise<unknown> {
  try {
    return await item.work(deferred.unit(tx));
  } catch (error) {
    throw new UnitFailure(index, error);
  }
}

/** Time the units of one batch may run before the next unit waits for a turn of the event loop, ms. */
export const UNIT_SLICE_MS = 4;

/**
 * A batch's pause between two units: a turn of the event loop (`setImmediate`) once
 * {@link UNIT_SLICE_MS} have passed since the last one, else none. On SQLite a batch's units never
 * wait for I/O (better-sqlite3 is synchronous), so 64 units of a few milliseconds each were one
 * block of the event loop; now `/healthz`, timers and sockets get a turn every slice (issue 23).
 * What it saves: the loop's longest block under a write load, for one `setImmediate` per slice.
 */
function turnsBetweenUnits(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < UNIT_SLICE_MS) return;
    await nextTurn();
    since = performance.now();
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Group commit: units of work that arrive while a commit is under way (or in the same event-loop
 * turn) run one after the other inside one transaction and are committed together. Every unit
 * stays atomic: the batch first runs without savepoints; if a unit throws, that transaction is
 * rolled back, the unit's caller gets its error (it ran on exactly the state a savepoint would
 * have given it: the writes of the units before it), and the other units run again in a new
 * transaction, each in its own savepoint, so a second failure costs only its own unit. If the
 * commit itself fails, every caller of that batch sees the error and nothing of the batch is
 * stored. No caller is answered before its commit. (Same idea as PostgreSQL's group commit of
 * concurrent WAL flushes.)
 *
 * - SQLite (one batch at a time): SQLite admits one writer and a commit costs far more than a
 *   small insert, so this multiplies write throughput under concurrency.
 * - PostgreSQL (a few batches in flight): every audited write used to hold the one `audit_head` row lock until its commit was
 *   durable, so writes were serial across all processes; now a whole batch shares one lock hold
 *   and one commit. Batching makes a transaction hold the locks of many units, so two processes
 *   can deadlock on crossing uncommitted unique keys (the same delivery sent to two servers at
 *   once). PostgreSQL then aborts a statement or the transaction with 40P01: a unit aborted on
 *   its own is re-run in a later batch (after the rest of its batch committed and released its
 *   locks); a batch aborted as a whole (in a deferred write's flush or at COMMIT) is run
 *   again from scratch, every unit anew. Units must therefore be pure database work. After
 *   `attempts` runs the callers get the error. A unit's other errors (a unique violation) fail
 *   that unit only, as before.
 *
 * On both, what the units defer (db/unit-of-work.ts; the audit chain's appends) is written once
 * per batch, right before its COMMIT: for the audit chain one head read, one multi-row insert
 * and one head update per batch instead of per unit. A batch that committed a unit wakes the
 * background loops once (db/wakeup.ts: one `NOTIFY` in the batch on PostgreSQL).
 *
 * Expected units: a caller may announce a unit before it can submit it ({@link WriteBatcher.expect}).
 * A batch that would start with room left while units announced before it are still on their
 * way waits for them (at most {@link EXPECTED_UNIT_WAIT_MS}), as PostgreSQL's `commit_delay`
 * waits for `commit_siblings`. Without it a DRP exercise, whose signature is checked on the
 * thread pool, reached the batcher alone or in twos as the checks came back, and its batches
 * held 17 units where a filing's hold 30–60: each commit wrote the pages a larger batch shares
 * once (bench row `drp-exercise`, docs/drp.md "Not yet"). A batch that ends starts the next at
 * once: what queued meanwhile has waited already.
 *
 * @param options - see {@link WriteBatcherOptions}; defaults: {@link MAX_BATCH}, concurrency 1,
 *   {@link CONFLICT_ATTEMPTS}, {@link EXPECTED_UNIT_WAIT_MS}.
 */
export function createWriteBatcher(db: Kysely<DB>, options: WriteBatcherOptions = {}): WriteBatcher {
  const { maxBatch = MAX_BATCH, concurrency = 1, attempts = CONFLICT_ATTEMPTS, expectedWaitMs = EXPECTED_UNIT_WAIT_MS } = options;
  const queue: Pending[] = [];
  let inFlight = 0;
  let pumpScheduled = false;

  /**
   * One transaction over `batch`. Optimistic (`savepoints` false): the units run one after the
   * other with no savepoint, and the first unit that throws aborts the whole transaction with a
   * {@link UnitFailure}. With savepoints, a unit that throws is rolled back alone.
   */
  const runBatch = (batch: Pending[], savepoints: boolean) =>
    db.transaction().execute(async (tx) => {
      const deferred = new DeferredWriteSet();
      const outcomes: Outcome[] = [];
      const turns = turnsBetweenUnits();
      for (const [index, item] of batch.entries()) {
        if (index > 0) await turns();
        if (savepoints) outcomes.push(await runInSavepoint(tx, deferred, item));
        else outcomes.push({ ok: true, value: await runUnit(tx, deferred, item, index) });
      }
      await deferred.flush(tx);
      // Once per batch: the background loops are woken when (and only if) it commits.
      if (outcomes.some((outcome) => outcome.ok)) await notifyAtCommit(tx);
      return outcomes;
    });

  /** Answers each unit after the commit; units aborted by a conflict go back to the head of the queue, in order. */
  function settle(batch: Pending[], outcomes: Outcome[]): void {
    const again: Pending[] = [];
    outcomes.forEach((outcome, i) => {
      const item = batch[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else if (isTransientConflict(outcome.error) && ++item.conflicts < attempts) again.push(item);
      else item.reject(outcome.error);
    });
    queue.unshift(...again);
  }

  /**
   * Runs `batch` optimistically, then, if one unit failed, answers that unit with its error (it
   * saw exactly the state it would have seen in a savepoint: the units before it) and runs the
   * others again, each in a savepoint. The happy path thus costs no savepoint round trips.
   */
  async function commitBatch(batch: Pending[], savepoints = false): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = await runBatch(batch, savepoints);
        if (outcomes.some((outcome) => outcome.ok)) committed(db);
        settle(batch, outcomes);
        return;
      } catch (error) {
        if (error instanceof UnitFailure) {
          // Answered after the others committed: a unit aborted by a conflict goes back to the
          // queue only once their locks are released.
          const rest = batch.filter((_, i) => i !== error.index);
          if (rest.length > 0) await commitBatch(rest, true);
          settle([batch[error.index]!], [{ ok: false, error: error.cause }]);
          return;
        }
        if (!isTransientConflict(error) || attempt >= attempts) {
          for (const item of batch) item.reject(error);
          return;
        }
        // The other transaction of the cycle goes on once ours is gone; a short random pause
        // keeps two retrying batches from meeting again in the same order.
        await pause(Math.random() * 10 * attempt);
      }
    }
  }

  const expectedUnits = new ExpectedUnits(expectedWaitMs, schedulePump);

  function pump(): void {
    pumpScheduled = false;
    const roomLeft = inFlight < concurrency && queue.length > 0 && queue.length < maxBatch;
    if (!expectedUnits.batchWaits(roomLeft, startBatches)) startBatches();
  }

  function startBatches(): void {
    while (inFlight < concurrency && queue.length > 0) {
      inFlight++;
      void commitBatch(queue.splice(0, maxBatch)).finally(() => {
        inFlight--;
        startBatches();
      });
    }
  }

  /**
   * Starts batches after the current turn's I/O callbacks, not at once. A SQLite batch never
   * waits for I/O (better-sqlite3 is synchronous), so a batch started at once would hold one unit
   * only: the requests read in the same poll phase would queue only after it committed. Waiting
   * for `setImmediate` (the check phase, right after polling) lets every request of this turn
   * join the batch; it adds no timer delay.
   */
  function schedulePump(): void {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(pump);
  }

  const transact = <T>(work: (unit: UnitOfWork) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject, conflicts: 0 });
      schedulePump();
    });
  return Object.assign(transact, { expect: () => expectedUnits.announce() });
}
