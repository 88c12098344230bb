import { isSystemCategory, withinScope } from '../data-categories/data-categories.fns.js';
import type { RequestType } from '../request-model/request-model.js';
import type { AllowedHost } from '../../lib/allowed-hosts.js';
import { type ConnectorKind, parseConnection } from './connection-url.fns.js';
import { connectorAction } from './connector-action.fns.js';
import { ConnectorError } from './connector.errors.js';
import { type CollectionCounts, countWrite, type ErasureCounts, NO_ERASURE } from './erasure-counts.fns.js';
import type { Dataset, Field } from './dataset.types.js';
import { previewWarnings } from './dataset-warnings.js';
import type { CollectionWarnings } from './masking-fit.fns.js';
import { type Identities, type PlannedStatement, readSubjectRows, type ReadResult } from './read-pass.js';
import { type ConnectorLimits, openSession, type Row, type SqlSession } from './sql-session.js';
import { buildTraversal, type Traversal, TraversalCycleError } from './traversal.fns.js';
import { refusedWrite } from './write-refusal.js';
import { type CollectionWrite, fieldInScope, planCorrection, planErasure } from './write-plan.fns.js';

export type { CollectionCounts } from './erasure-counts.fns.js';

/** What a connector run needs; nothing of the request lifecycle (the caller maps its task onto this). */
export interface ConnectorTaskInput {
  readonly kind: ConnectorKind;
  /** The decrypted connection URL. Never logged or put in an error. */
  readonly url: string;
  /** The connection's CA certificate(s), PEM text, for `verify-full` (`connection.sslrootcert`). */
  readonly sslrootcert?: string;
  /** The data system's key: errors name it. */
  readonly system: string;
  /** The stored, validated dataset (`parseDataset` + `checkDataset`). */
  readonly dataset: Dataset;
  /** The service's own request type (request-model): each one is handled by {@link connectorAction}. */
  readonly requestType: RequestType;
  /** The task's categories (the scope overlap): which fields are returned, masked or deleted. */
  readonly categories: readonly string[];
  /** Identities of the subject: `email`, `username`, `<provider>_id` → values. */
  readonly identities: Identities;
  /** Correction only: category → corrected value (fields labelled with exactly that category are set). */
  readonly corrections?: Readonly<Record<string, string>>;
  /** The workspace's key for the `hmac` masking strategy (deterministic per workspace). */
  readonly hmacKey: string;
  readonly limits: ConnectorLimits;
  /** `CONNECTOR_ALLOWED_HOSTS`, parsed: checked again on the resolved address. */
  readonly allowedHosts: readonly AllowedHost[];
  /**
   * Erasure only: called after each collection's transaction commits, with this run's counts so
   * far, so a caller can keep them for a run after an interruption (PRODUCT §2.17). A failure
   * here fails the run (its writes so far stay committed).
   */
  readonly onErasureProgress?: (done: ErasureCounts) => Promise<void>;
}

/** What a run did. `statements`: statements sent to the target (transaction control included). */
export type ConnectorTaskResult =
  | {
      readonly type: 'access';
      readonly collections: Record<string, Row[]>;
      readonly records: Record<string, number>;
      /** Rows found per collection the traversal read (in scope or not, zeros included): Fides' rows per collection. */
      readonly found: Record<string, number>;
      readonly statements: number;
    }
  | {
      readonly type: 'erasure';
      readonly collections: Record<string, CollectionCounts>;
      readonly erased: Record<string, number>;
      readonly statements: number;
    }
  | { readonly type: 'correction'; readonly collections: Record<string, { updated: number }>; readonly statements: number };

/** Opens a session on the input's target. @throws ConnectorError. */
export async function openTarget(
  input: Pick<ConnectorTaskInput, 'kind' | 'url' | 'sslrootcert' | 'system' | 'limits' | 'allowedHosts'>,
): Promise<SqlSession> {
  const { url, sslrootcert } = input;
  const parsed = parseConnection(input.kind, sslrootcert === undefined ? { url } : { url, sslrootcert });
  if ('problems' in parsed) throw new ConnectorError('unreachable', input.system, null, 'bad_url');
  return openSession(parsed.target, { allowedHosts: input.allowedHosts, limits: input.limits, system: input.system });
}

/** The in-scope personal-data categories `row` holds a value of (each once, whatever the number of fields). */
function rowCategories(row: Row, fields: readonly Field[], scope: readonly string[]): Set<string> {
  const held = new Set<string>();
  for (const f of fields)
    if (row[f.name] !== null && row[f.name] !== undefined)
      for (const k of f.data_categories) if (!isSystemCategory(k) && withinScope(scope, k)) held.add(k);
  return held;
}

/**
 * The package part of an access pass: each collection's rows with only the fields whose
 * categories fall within the scope (never `system.*`), and per category the rows found that hold
 * a value of it (PRODUCT §2.17: counts are rows; a row with two fields of one category counts once).
 */
export function accessPackage(
  dataset: Dataset,
  read: ReadResult,
  scope: readonly string[],
): { collections: Record<string, Row[]>; records: Record<string, number> } {
  const collections: Record<string, Row[]> = {};
  const records: Record<string, number> = {};
  for (const c of dataset.collections) {
    const rows = read.rows.get(c.name);
    const fields = c.fields.filter((f) => fieldInScope(f, scope));
    if (!rows || fields.length === 0) continue;
    collections[c.name] = rows.map((r) => Object.fromEntries(fields.map((f) => [f.name, r[f.name] ?? null])));
    for (const row of rows) for (const k of rowCategories(row, fields, scope)) records[k] = (records[k] ?? 0) + 1;
  }
  return { collections, records };
}

/**
 * Runs each collection's writes in its own transaction, in order; `committed` is told of each
 * collection once it is committed, with its rows. @throws ConnectorError naming the collection,
 * and the column a refused write hit (`refusedWrite`, PRODUCT §2.17).
 */
async function applyWrites(
  session: SqlSession,
  writes: readonly CollectionWrite[],
  system: string,
  dataset: Dataset,
  committed: (write: CollectionWrite, rows: number) => Promise<void>,
): Promise<void> {
  for (const w of writes) {
    let count = 0;
    try {
      await session.run(session.dialect.beginWrite, []);
      for (const s of w.statements) count += (await session.run(s.sql, s.params)).affected;
      await session.run('COMMIT', []);
    } catch (error) {
      await session.run('ROLLBACK', []).catch(() => undefined);
      throw await refusedWrite(session, error, { system, dataset, collection: w.collection });
    }
    await committed(w, count);
  }
}

/** The traversal for this request: seeded by the identities it has values for (Fides' semantics). @throws ConnectorError on a cycle. */
function requestTraversal(input: ConnectorTaskInput): Traversal {
  try {
    return buildTraversal(input.dataset, (identity) => (input.identities[identity]?.length ?? 0) > 0);
  } catch (error) {
    if (error instanceof TraversalCycleError) throw new ConnectorError('failed', input.system, null, 'traversal_cycle');
    throw error;
  }
}

/** The access pass of a task: the subject's rows in every collection the traversal reaches. */
function readTaskRows(session: SqlSession, input: ConnectorTaskInput, traversal: Traversal): Promise<ReadResult> {
  return readSubjectRows(session, {
    dataset: input.dataset,
    traversal,
    identities: input.identities,
    maxRows: input.limits.maxRows,
    system: input.system,
  });
}

/** The erasure of a task: its writes in erase order, counted as each collection commits. */
async function erase(session: SqlSession, input: ConnectorTaskInput, traversal: Traversal, read: ReadResult) {
  const writes = planErasure(session.dialect, input.dataset, traversal, read, input.categories, input.hmacKey);
  let counts: ErasureCounts = NO_ERASURE;
  await applyWrites(session, writes, input.system, input.dataset, async (w, rows) => {
    counts = countWrite(counts, w, rows);
    await input.onErasureProgress?.(counts);
  });
  return { type: 'erasure' as const, ...counts, statements: session.statements };
}

/** The correction of a task: rows updated per collection. */
async function correct(session: SqlSession, input: ConnectorTaskInput, traversal: Traversal, read: ReadResult) {
  const writes = planCorrection(session.dialect, input.dataset, traversal, read, input.corrections ?? {});
  const collections: Record<string, { updated: number }> = {};
  await applyWrites(session, writes, input.system, input.dataset, async (w, rows) => {
    collections[w.collection] = { updated: rows };
  });
  return { type: 'correction' as const, collections, statements: session.statements };
}

/**
 * Runs one data task on a database system (PRODUCT §2.14, §2.17): access/export returns the rows
 * in scope; deletion masks or deletes (one transaction per collection, `erase_after` order,
 * idempotent on a rerun: identities are erased last); correction sets the corrected categories.
 * The request type is decided first ({@link connectorAction}): an unknown one throws before any
 * connection. @throws UnsupportedRequestTypeError; ConnectorError: `retryable` for a database
 * that is down, slow, busy or refuses a privilege; permanent otherwise. Its message names the
 * system and collection only.
 */
export async function runConnectorTask(input: ConnectorTaskInput): Promise<ConnectorTaskResult> {
  const action = connectorAction(input.requestType);
  const traversal = requestTraversal(input);
  const session = await openTarget(input);
  try {
    const read = await readTaskRows(session, input, traversal);
    switch (action) {
      case 'read': {
        const found = Object.fromEntries([...read.rows].map(([name, rows]) => [name, rows.length]));
        return { type: 'access', ...accessPackage(input.dataset, read, input.categories), found, statements: session.statements };
      }
      case 'correct':
        return await correct(session, input, traversal, read);
      case 'erase':
        return await erase(session, input, traversal, read);
    }
  } finally {
    await session.close();
  }
}

/**
 * The plan of a task without its writes (PRODUCT §2.14 preview): the access pass runs (read-only)
 * and every statement is listed in order with placeholders, never values, and the rows it
 * touches; a deletion's or correction's writes are planned, not run. `warnings`: the collections
 * whose columns refuse the deletion's masking or are searched without an index (null when the
 * catalog could not be read). @throws ConnectorError.
 */
export async function previewConnectorTask(
  input: ConnectorTaskInput,
): Promise<{ statements: PlannedStatement[]; warnings: CollectionWarnings[] | null }> {
  const action = connectorAction(input.requestType);
  const traversal = requestTraversal(input);
  const session = await openTarget(input);
  try {
    const read = await readTaskRows(session, input, traversal);
    const writes = plannedWrites(action, session, input, traversal, read);
    const planned = writes.flatMap((w) =>
      w.statements.map((s): PlannedStatement => ({ collection: w.collection, operation: w.operation, sql: s.sql, rows: s.rows })),
    );
    // What the database's own rules say (PRODUCT §2.17): a deletion's masked fields, every search.
    const masks = input.requestType === 'deletion' ? (f: Field) => fieldInScope(f, input.categories) : () => false;
    const warnings = await previewWarnings(session, input.dataset, traversal, masks);
    return { statements: [...read.statements, ...planned], warnings };
  } finally {
    await session.close();
  }
}

/** The writes a preview lists for its action (none for a read). */
function plannedWrites(
  action: ReturnType<typeof connectorAction>,
  session: SqlSession,
  input: ConnectorTaskInput,
  traversal: Traversal,
  read: ReadResult,
): CollectionWrite[] {
  switch (action) {
    case 'read':
      return [];
    case 'correct':
      return planCorrection(session.dialect, input.dataset, traversal, read, input.corrections ?? {});
    case 'erase':
      return planErasure(session.dialect, input.dataset, traversal, read, input.categories, input.hmacKey);
  }
}
