import type { Executor } from '../../db/executor.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';

/**
 * What a handler gets: where to read and write, the claimed request, the time, the pseudonym
 * key, and `pause`, to await between pages and batches of long work.
 */
export interface HandlerContext {
  /**
   * The transaction its effects must use; for a {@link RequestHandler.readOnly} handler the
   * worker passes the database itself (no transaction: reads in pages, nothing held between them).
   */
  tx: Executor;
  request: PrivacyRequestRow;
  now: Date;
  pseudonymKey: string;
  /**
   * Yields to the event loop (setImmediate) so HTTP requests and signals are served; throws when
   * the worker is stopping (the attempt is abandoned and the request given back). Absent when a
   * test calls a handler directly: then a plain yield.
   */
  pause?: () => Promise<void>;
}

/**
 * What a handler decided. `completed` stores `package` (access/export, personal data) and/or
 * `report` (deletion/correction, no personal data) in `request_results`; `action_required`
 * parks the request until an operator acts (correction waits for corrected values). `beforeWork`:
 * the request waits before any work is done (no data task is created: the workspace has no
 * controller profile, PRODUCT §2.13); it runs again from the start once the wait ends.
 */
export type HandlerOutcome =
  | {
      status: 'completed';
      package?: unknown;
      report?: unknown;
      /**
       * Whether the own step found the identity in this service's store (PRODUCT §2.13); false
       * lets the request wait as `identity_unmatched` when no system found anything either.
       * Absent: not said (taken as found).
       */
      found?: boolean;
    }
  | { status: 'action_required'; reason: string; beforeWork?: boolean };

/**
 * Processes one request. Must be idempotent: if the worker dies before commit, the transaction
 * rolls back and the request runs again. Throws to fail the attempt (retried).
 *
 * `readOnly` handlers (access, export) write nothing themselves: the worker runs them outside
 * any transaction and stores their outcome afterwards in a short one that also checks the lease.
 * The others run inside the transaction that records the outcome.
 *
 * `erases` handlers (deletion) complete only once no copy of what they erased remains in the
 * database's storage: the worker commits their effects and their report first, checkpoints
 * SQLite's WAL until it is clean, and only then records `completed` (docs/decisions.md).
 */
export type RequestHandler = ((ctx: HandlerContext) => Promise<HandlerOutcome>) & {
  readonly readOnly?: boolean;
  readonly erases?: boolean;
};
