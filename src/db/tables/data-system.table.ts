import type { ColumnType } from 'kysely';

/**
 * Row shape of `data_systems`: a downstream system of a workspace that holds personal data
 * (PRODUCT §2.9). `categories` and `request_types` are JSON arrays; `deleted_at` set: deleted
 * (no new tasks; its tasks stay and can still be answered).
 */
export interface DataSystemTable {
  id: string;
  workspace_id: string;
  /** `^[a-z0-9][a-z0-9-]{0,62}$`, unique per workspace (deleted systems included). */
  key: string;
  name: string;
  categories: string;
  request_types: string;
  /** The webhook endpoint (`ep_…`) that receives its `data_task.created` events; NULL: manual tasks. */
  endpoint_id: string | null;
  /** Days a task has from its creation (the request's due date still binds when earlier); NULL: none. */
  due_days: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** `webhook` (endpoint_id set), `manual`, or a database the service reaches itself: `postgres`, `mysql` (PRODUCT §2.14). */
  kind: ColumnType<DataSystemKind, DataSystemKind | undefined, DataSystemKind>;
  /** Database kinds: the connection URL sealed with the service's secret box; never returned, logged or audited. */
  connection_ciphertext: string | null;
  /** Database kinds: the Fides dataset as given (JSON text, a YAML string parsed), checked. */
  dataset: string | null;
  /** Database kinds: the dataset's `fides_key`, unique per workspace among live systems (cleared on delete). */
  fides_key: string | null;
  /**
   * What the controller declares about the system's processing (PRODUCT §2.17; GDPR Art. 15(1)(a),
   * (c), (d), (g)): each a JSON array of plain-text strings; NULL: not declared (the letter says so).
   */
  purposes: ColumnType<string | null, string | null | undefined, string | null>;
  recipients: ColumnType<string | null, string | null | undefined, string | null>;
  retention: ColumnType<string | null, string | null | undefined, string | null>;
  source: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * 1 when the system belongs to a third party the personal information was sold or shared to
   * (11 CCR §7026(f)(2); PRODUCT §2.18), else 0.
   */
  third_party: ColumnType<number, number | undefined, number>;
}

/** The kinds of data system (PRODUCT §2.14). */
export type DataSystemKind = 'webhook' | 'manual' | 'postgres' | 'mysql';

/**
 * Status of a data task: `pending` until its system (or an operator) reports a final outcome;
 * `not_searchable` when a database system could not be searched with any identity the request
 * had (PRODUCT §2.17; set by the service's own connector only); `superseded` when a later
 * opt-out or opt-in of the same kind for the same subject replaced its opt-out's choice (PRODUCT
 * §2.18; counts as done).
 */
export type DataTaskStatus = 'pending' | 'completed' | 'failed' | 'not_applicable' | 'not_searchable' | 'superseded';

/**
 * Row shape of `data_tasks`: one privacy request's work for one data system. `categories` (JSON
 * array) is the overlap of the request's scope and the system's categories; `result` the JSON
 * the system reported (`records`, `data`, `erased`, `kept`, `note`; `data` is personal data).
 */
export interface DataTaskTable {
  id: string;
  /**
   * What the task is for: the privacy request (`pr_…`), or for an opt-out's task the opt-out
   * (`oo_…`, the same as `opt_out_id`), so `(request_id, system_key)` is unique for both.
   */
  request_id: string;
  workspace_id: string;
  system_key: string;
  request_type: string;
  categories: string;
  status: DataTaskStatus;
  due_at: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  result: string | null;
  /**
   * Bytes of `result` (its JSON, UTF-8), written with it: what the per-request cap sums
   * (`MAX_REQUEST_DATA_BYTES`, issue 23 item 2). NULL while there is no result.
   */
  result_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the one `data_task.overdue` event was enqueued; NULL before. */
  overdue_notified_at: string | null;
  /**
   * The kind of system that does the task, fixed when it is created (`webhook`, `manual`, or a
   * kind the service runs itself: modules/data-systems/executors).
   */
  executor: string;
  /** Runs of a task the service runs itself (its retries), and the worker holding it until when. */
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** Earliest time of its next run after a failed one (backoff); NULL: due now. */
  next_attempt_at: string | null;
  /**
   * A task the service runs itself: the subject's identities when the task was created (JSON,
   * sealed with the secret box), so a deletion that erases them here first can still find the
   * subject in the system; NULL once the task has ended, and for other kinds.
   */
  identities_ciphertext: string | null;
  /**
   * A connector erasure's counts of the runs before this one (JSON `{collections, erased}`), kept
   * after each collection it commits, so a run after an interruption reports both (PRODUCT
   * §2.17); NULL before any and once the task has ended.
   */
  run_progress: ColumnType<string | null, string | null | undefined, string | null>;
  /** The opt-out (`oo_…`) whose choice the task tells its system of (PRODUCT §2.18); NULL: a privacy request's task. */
  opt_out_id: ColumnType<string | null, string | null | undefined, string | null>;
}
