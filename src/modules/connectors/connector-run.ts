import { isSystemCategory, withinScope } from '../data-categories/data-categories.fns.js';
import type { AllowedHost } from '../../lib/allowed-hosts.js';
import { type ConnectorKind, parseConnectionUrl } from './connection-url.fns.js';
import { ConnectorError } from './connector.errors.js';
import type { Dataset, Field } from './dataset.types.js';
import { previewWarnings } from './dataset-warnings.js';
import type { CollectionWarnings } from './masking-fit.fns.js';
import { type Identities, type PlannedStatement, readSubjectRows, type ReadResult } from './read-pass.js';
import { type ConnectorLimits, openSession, type Row, type SqlSession } from './sql-session.js';
import { buildTraversal, type Traversal } from './traversal.fns.js';
import { refusedWrite } from './write-refusal.js';
import { type CollectionWrite, fieldInScope, planCorrection, planErasure } from './write-plan.fns.js';

/** The request types a connector runs (PRODUCT §1). */
export type ConnectorRequestType = 'access' | 'export' | 'correction' | 'deletion';

/** What a connector run needs; nothing of the request lifecycle (the caller maps its task onto this). */
export interface ConnectorTaskInput {
  readonly kind: ConnectorKind;
  /** The decrypted connection URL. Never logged or put in an error. */
  readonly url: string;
  /** The data system's key: errors name it. */
  readonly system: string;
  /** The stored, validated dataset (`parseDataset` + `checkDataset`). */
  readonly dataset: Dataset;
  readonly requestType: ConnectorRequestType;
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
}

/** Rows masked and deleted in one collection. */
export interface CollectionCounts {
  masked: number;
  deleted: number;
}

/** What a run did. `statements`: statements sent to the target (transaction control included). */
export type ConnectorTaskResult =
  | {
      readonly type: 'access';
      readonly collections: Record<string, Row[]>;
      readonly records: Record<string, number>;
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
  input: Pick<ConnectorTaskInput, 'kind' | 'url' | 'system' | 'limits' | 'allowedHosts'>,
): Promise<SqlSession> {
  const parsed = parseConnectionUrl(input.kind, input.url);
  if ('problems' in parsed) throw new ConnectorError('unreachable', input.system, null, 'bad_url');
  return openSession(parsed.target, { allowedHosts: input.allowedHosts, limits: input.limits, system: input.system });
}

/**
 * The package part of an access pass: each collection's rows with only the fields whose
 * categories fall within the scope (never `system.*`), and per category the rows holding a
 * non-null value of it.
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
    for (const f of fields)
      for (const k of f.data_categories.filter((k) => !isSystemCategory(k) && withinScope(scope, k)))
        records[k] = (records[k] ?? 0) + rows.filter((r) => r[f.name] !== null && r[f.name] !== undefined).length;
  }
  return { collections, records };
}

/**
 * Runs each collection's writes in its own transaction, in order. @throws ConnectorError naming
 * the collection, and the column a refused write hit (`refusedWrite`, PRODUCT §2.17).
 */
async function applyWrites(
  session: SqlSession,
  writes: readonly CollectionWrite[],
  system: string,
  dataset: Dataset,
): Promise<Map<string, number>> {
  const affected = new Map<string, number>();
  for (const w of writes) {
    try {
      await session.run(session.dialect.beginWrite, []);
      let count = 0;
      for (const s of w.statements) count += (await session.run(s.sql, s.params)).affected;
      await session.run('COMMIT', []);
      affected.set(w.collection, count);
    } catch (error) {
      await session.run('ROLLBACK', []).catch(() => undefined);
      throw await refusedWrite(session, error, { system, dataset, collection: w.collection });
    }
  }
  return affected;
}

/** The access pass of a task: the subject's rows in every collection the traversal reaches. */
function readTaskRows(session: SqlSession, input: ConnectorTaskInput, traversal: Traversal) {
  return readSubjectRows(session, {
    dataset: input.dataset,
    traversal,
    identities: input.identities,
    maxRows: input.limits.maxRows,
    system: input.system,
  });
}

/**
 * Runs one data task on a database system (PRODUCT §2.14): access/export returns the rows in
 * scope; deletion masks or deletes (one transaction per collection, `erase_after` order,
 * idempotent on a rerun: identities are erased last); correction sets the corrected categories.
 * @throws ConnectorError: `retryable` for a database that is down, slow, busy or refuses a
 * privilege; permanent otherwise. Its message names the system and collection only.
 */
export async function runConnectorTask(input: ConnectorTaskInput): Promise<ConnectorTaskResult> {
  const traversal = buildTraversal(input.dataset);
  const session = await openTarget(input);
  try {
    const read = await readTaskRows(session, input, traversal);
    if (input.requestType === 'access' || input.requestType === 'export')
      return { type: 'access', ...accessPackage(input.dataset, read, input.categories), statements: session.statements };
    if (input.requestType === 'correction') {
      const writes = planCorrection(session.dialect, input.dataset, traversal, read, input.corrections ?? {});
      const affected = await applyWrites(session, writes, input.system, input.dataset);
      return {
        type: 'correction',
        collections: Object.fromEntries([...affected].map(([c, n]) => [c, { updated: n }])),
        statements: session.statements,
      };
    }
    const writes = planErasure(session.dialect, input.dataset, traversal, read, input.categories, input.hmacKey);
    const affected = await applyWrites(session, writes, input.system, input.dataset);
    const collections: Record<string, CollectionCounts> = {};
    const erased: Record<string, number> = {};
    for (const w of writes) {
      const n = affected.get(w.collection) ?? 0;
      collections[w.collection] = w.operation === 'delete' ? { masked: 0, deleted: n } : { masked: n, deleted: 0 };
      for (const k of w.categories) erased[k] = (erased[k] ?? 0) + n;
    }
    return { type: 'erasure', collections, erased, statements: session.statements };
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
  const traversal = buildTraversal(input.dataset);
  const session = await openTarget(input);
  try {
    const read = await readTaskRows(session, input, traversal);
    const writes =
      input.requestType === 'deletion'
        ? planErasure(session.dialect, input.dataset, traversal, read, input.categories, input.hmacKey)
        : input.requestType === 'correction'
          ? planCorrection(session.dialect, input.dataset, traversal, read, input.corrections ?? {})
          : [];
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
