import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * A kind of write that units of work defer to their commit (the audit chain's appends, later the
 * outbox's messages): items are collected per transaction, in the order units add them, and
 * written by `flush` once, right before COMMIT. The feature that owns the table defines its kind
 * (e.g. `auditTrail` in modules/audit/audit.repository.ts); db/ knows none of them.
 */
export interface DeferredWrites<T> {
  /** For error messages and debugging only. */
  readonly name: string;
  /** Writes `items` (never empty) in `tx`, right before it commits. */
  flush(tx: Transaction<DB>, items: readonly T[]): Promise<void>;
}

/**
 * One unit of work: the transaction its rows are written in and the writes it defers to the
 * commit. A service method that writes opens one (through `Database.transact`, or
 * {@link runUnitOfWork} for a transaction of its own), adds its rows through repositories on
 * `tx` and its deferred writes with `defer`, and gets its outcome back once it committed.
 */
export interface UnitOfWork {
  readonly tx: Transaction<DB>;
  /** Adds `item` to what `kind.flush` writes at this unit's commit; dropped if the unit is rolled back. */
  defer<T>(kind: DeferredWrites<T>, item: T): void;
}

/**
 * What one transaction's units deferred, by kind. A batch transaction (db/write-batcher.ts)
 * shares one among its units; `mark`/`rollback` drop what a unit rolled back to its savepoint had
 * deferred.
 */
export class DeferredWriteSet {
  private readonly lists = new Map<DeferredWrites<unknown>, unknown[]>();

  /** A unit of work writing in `tx` whose deferred writes go to this set. */
  unit(tx: Transaction<DB>): UnitOfWork {
    return { tx, defer: (kind, item) => this.add(kind, item) };
  }

  private add<T>(kind: DeferredWrites<T>, item: T): void {
    const list = this.lists.get(kind as DeferredWrites<unknown>);
    if (list) list.push(item);
    else this.lists.set(kind as DeferredWrites<unknown>, [item]);
  }

  /** How many items of each kind are held now (to drop later additions with {@link rollback}). */
  mark(): Map<DeferredWrites<unknown>, number> {
    return new Map([...this.lists].map(([kind, list]) => [kind, list.length]));
  }

  /** Drops what was added after `mark`. */
  rollback(mark: Map<DeferredWrites<unknown>, number>): void {
    for (const [kind, list] of this.lists) list.splice(mark.get(kind) ?? 0);
  }

  /** Writes everything held, kind by kind in the order each kind was first used, then forgets it. */
  async flush(tx: Transaction<DB>): Promise<void> {
    for (const [kind, list] of this.lists) if (list.length > 0) await kind.flush(tx, list);
    this.lists.clear();
  }
}

/**
 * Runs `work` as one unit of work in a transaction of its own (not batched with others: for work
 * that holds row locks while it decides, like an operator action or the worker's steps), writes
 * what it deferred right before COMMIT, and resolves with its result after the commit.
 * @throws whatever `work` or a deferred write throws; the transaction is then rolled back.
 */
export function runUnitOfWork<T>(db: Kysely<DB>, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    const deferred = new DeferredWriteSet();
    const result = await work(deferred.unit(tx));
    await deferred.flush(tx);
    return result;
  });
}
