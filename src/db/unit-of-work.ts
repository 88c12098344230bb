import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';
import { committed, notifyAtCommit } from './wakeup.js';

/**
 * Where each kind of deferred write is written at a commit, stated once: lower places first, kinds
 * of one place in the order a transaction first used them. A kind whose flush settles
 * {@link Gate}s comes before every kind it gates: a filing's key is claimed (1), then its row is
 * stored if its `client_request_id` is free (2), an opt-out's tasks are created (3), and only
 * then are its audit entry, events, mails and the key's record written (4), each behind the gates
 * (docs/development.md, "The write path"). A kind's flush may defer items of a higher place
 * (through a unit its items carry): they are written with that place.
 */
export const DEFERRED_WRITE_PLACES = {
  /** modules/idempotency/key-claims.ts: every Idempotency-Key of the batch, claimed in one statement. */
  'idempotency claims': 1,
  /** workflows/filing/filing-batch.ts: the batch's request rows, one multi-row insert. */
  'filed requests': 2,
  /** modules/opt-outs/opt-out-filing.ts: the batch's opt-outs and the preferences they set. */
  'filed opt-outs': 2,
  /** workflows/opt-outs/opt-out-propagation.ts: an opt-out's data tasks, and earlier ones' tasks superseded. */
  'opt-out propagation': 3,
  /** modules/audit/audit.repository.ts: the audit chain's appends. */
  'audit trail': 4,
  /** modules/outbound-events/outbox.repository.ts: the outbound messages (outbox). */
  'outbound events': 4,
  /** modules/outbound-events/message-log.repository.ts: sent payloads of an ended deletion redacted. */
  'outbound payload redaction': 4,
  /** modules/privacy-center/mail-outbox.repository.ts: the privacy center's mails. */
  mails: 4,
  /** modules/privacy-center/mail-outbox.repository.ts: mails about a request to its notify address. */
  'request mails': 4,
  /** modules/idempotency/key-claims.ts: each claimed key's record, with the filing's outcome. */
  'idempotency records': 4,
  /** modules/drp/drp-record-filing.ts: a DRP exercise's record and digest, behind what it filed. */
  'drp records': 4,
} as const;

/** The name of a kind of deferred write: a key of {@link DEFERRED_WRITE_PLACES}. */
export type DeferredWriteName = keyof typeof DEFERRED_WRITE_PLACES;

/**
 * A kind of write that units of work defer to their commit (the audit chain's appends, the
 * outbox's messages): items are collected per transaction, in the order units add them, and
 * written by `flush` once, right before COMMIT. The feature that owns the table defines its kind
 * (e.g. `auditTrail` in modules/audit/audit.repository.ts); db/ knows only their names and places.
 */
export interface DeferredWrites<T> {
  /** Its entry in {@link DEFERRED_WRITE_PLACES}, which says when it is written. */
  readonly name: DeferredWriteName;
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
  /**
   * This unit, with every item deferred through the returned unit written only if `gate` is open
   * at the flush (settled by a kind of a lower place): an audit entry and events that exist
   * only if a row deferred with them is stored. On a unit that is gated already, the returned
   * unit's items need both gates open (a filing's entry: its key claimed, then its row stored).
   */
  gated(gate: Gate): UnitOfWork;
}

/**
 * Whether the items deferred behind it ({@link UnitOfWork.gated}) are written: settled once, by the
 * flush of a kind of a lower place, before the kinds it gates are written.
 */
export class Gate {
  private state: boolean | undefined;

  /** Opens (true) or closes (false) the gate. */
  settle(open: boolean): void {
    this.state = open;
  }

  /**
   * True when open.
   * @throws Error when read before it was settled (a gated kind flushed before its gate's kind).
   */
  get open(): boolean {
    if (this.state === undefined) throw new Error('a deferred write was gated on a gate nobody settled');
    return this.state;
  }
}

/** What an item deferred behind gates asks at the flush: are they all open? */
interface Opening {
  readonly open: boolean;
}

/** Open when `outer` and then `inner` are: `inner` is not read while `outer` is closed (nobody settles it then). */
function bothOpen(outer: Opening, inner: Opening): Opening {
  return {
    get open() {
      return outer.open && inner.open;
    },
  };
}

interface Entry {
  item: unknown;
  gate: Opening | undefined;
}

/**
 * What one transaction's units deferred, by kind. A batch transaction (db/write-batcher.ts)
 * shares one among its units; `mark`/`rollback` drop what a unit rolled back to its savepoint had
 * deferred.
 */
export class DeferredWriteSet {
  private readonly lists = new Map<DeferredWrites<unknown>, Entry[]>();

  /** A unit of work writing in `tx` whose deferred writes go to this set (behind `gate`, if given). */
  unit(tx: Transaction<DB>, gate?: Opening): UnitOfWork {
    return {
      tx,
      defer: (kind, item) => this.add(kind, { item, gate }),
      gated: (next) => this.unit(tx, gate === undefined ? next : bothOpen(gate, next)),
    };
  }

  private add<T>(kind: DeferredWrites<T>, entry: Entry): void {
    const list = this.lists.get(kind as DeferredWrites<unknown>);
    if (list) list.push(entry);
    else this.lists.set(kind as DeferredWrites<unknown>, [entry]);
  }

  /** How many items of each kind are held now (to drop later additions with {@link rollback}). */
  mark(): Map<DeferredWrites<unknown>, number> {
    return new Map([...this.lists].map(([kind, list]) => [kind, list.length]));
  }

  /** Drops what was added after `mark`. */
  rollback(mark: Map<DeferredWrites<unknown>, number>): void {
    for (const [kind, list] of this.lists) list.splice(mark.get(kind) ?? 0);
  }

  /**
   * Writes everything held, kind by kind by {@link DEFERRED_WRITE_PLACES} and then in the order
   * each kind was first used, then forgets it. Items behind a closed {@link Gate} are left out.
   * Items a flush defers (through a unit its items carry) are written too, with their kind's place,
   * when that place is not lower than the flushing kind's.
   * @throws Error when a flush defers an item of a kind already written or of a lower place (it would be lost).
   */
  async flush(tx: Transaction<DB>): Promise<void> {
    const place = (kind: DeferredWrites<unknown>) => DEFERRED_WRITE_PLACES[kind.name];
    /** Kind → how many of its items were handed to its flush. */
    const written = new Map<DeferredWrites<unknown>, number>();
    let current = 0;
    for (;;) {
      // Sorting is stable: kinds of one place keep the order of their first use.
      const kind = [...this.lists.keys()].filter((k) => !written.has(k)).sort((a, b) => place(a) - place(b))[0];
      if (kind === undefined) break;
      if (place(kind) < current) throw new Error(`${kind.name} was deferred after its place was written`);
      current = place(kind);
      const list = this.lists.get(kind)!;
      written.set(kind, list.length);
      const items = list.filter((entry) => entry.gate === undefined || entry.gate.open).map((e) => e.item);
      if (items.length > 0) await kind.flush(tx, items);
    }
    for (const [kind, list] of this.lists)
      if (list.length > (written.get(kind) ?? 0)) throw new Error(`${kind.name} was deferred after its place was written`);
    this.lists.clear();
  }
}

/**
 * Runs `work` as one unit of work in a transaction of its own (not batched with others: for work
 * that holds row locks while it decides, like an operator action or the worker's steps), writes
 * what it deferred right before COMMIT, and resolves with its result after the commit. Its
 * commit wakes the background loops (db/wakeup.ts: `NOTIFY` in the transaction on PostgreSQL,
 * this process's listeners after the commit).
 * @throws whatever `work` or a deferred write throws; the transaction is then rolled back.
 */
export async function runUnitOfWork<T>(db: Kysely<DB>, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(async (tx) => {
    const deferred = new DeferredWriteSet();
    const value = await work(deferred.unit(tx));
    await deferred.flush(tx);
    await notifyAtCommit(tx);
    return value;
  });
  committed(db);
  return result;
}
