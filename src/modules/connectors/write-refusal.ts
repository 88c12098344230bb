import { defaultSchema, readCatalog, readKeys } from './catalog.js';
import { classifyDriverError, ConnectorError, type ConnectorFailure } from './connector.errors.js';
import type { Dataset } from './dataset.types.js';
import { asConnectorError } from './read-pass.js';
import type { SqlSession } from './sql-session.js';
import { type RefusalHints, refusalHints } from './write-refusal.fns.js';

/** Refusals of a value by a column's own rule: the ones whose column is worth finding. */
const RULES: ReadonlySet<ConnectorFailure> = new Set(['not_null', 'unique', 'check', 'foreign_key', 'too_long', 'invalid_value']);

/** Where a refused write happened. */
export interface WriteAt {
  readonly system: string;
  readonly dataset: Dataset;
  readonly collection: string;
}

/** `name` without a leading `<table>.` (MySQL 8 names keys `table.key`; MariaDB a column CHECK `table.column`). */
const unqualified = (name: string, table: string) => (name.startsWith(`${table}.`) ? name.slice(table.length + 1) : name);

/** The columns of the collection's table the constraint or index covers (empty when the catalog does not know it). */
async function constraintColumns(session: SqlSession, at: WriteAt, name: string): Promise<string[]> {
  const schema = at.dataset.schema ?? (await defaultSchema(session));
  const keys = (await readKeys(session, schema)).filter((k) => k.table === at.collection);
  const key = keys.find((k) => k.name === name) ?? keys.find((k) => k.name === unqualified(name, at.collection));
  return (key?.columns ?? []).filter((c): c is string => c !== null);
}

/** PostgreSQL's 22001 names a type, not a column: the collection's fields whose column has that type and length. */
async function tooLongColumns(session: SqlSession, at: WriteAt, type: string, length: number): Promise<string[]> {
  const table = (await readCatalog(session, at.dataset.schema)).get(at.collection);
  const fields = at.dataset.collections.find((c) => c.name === at.collection)?.fields ?? [];
  return fields
    .map((f) => table?.columns.get(f.name))
    .filter((c) => c !== undefined && c.length === length && c.dataType === type.toLowerCase())
    .map((c) => c!.name);
}

/** The column(s) and constraint to name, each confirmed by the dataset or the catalog. */
async function locate(
  session: SqlSession,
  at: WriteAt,
  hints: RefusalHints,
): Promise<{ column: string | null; constraint: string | null }> {
  const fields = new Set(at.dataset.collections.find((c) => c.name === at.collection)?.fields.map((f) => f.name) ?? []);
  let columns: string[] = hints.column !== null && fields.has(hints.column) ? [hints.column] : [];
  let constraint = hints.fromMessage ? null : hints.constraint;
  if (hints.constraint !== null) {
    const covered = await constraintColumns(session, at, hints.constraint);
    // A name read from a MySQL message is shown only when the catalog knows it.
    if (covered.length > 0) constraint = hints.constraint;
    if (columns.length === 0) columns = covered.filter((c) => fields.has(c));
  }
  if (columns.length === 0 && hints.tooLongFor)
    columns = await tooLongColumns(session, at, hints.tooLongFor.type, hints.tooLongFor.length);
  return { column: columns.length > 0 ? columns.join(', ') : null, constraint };
}

/**
 * The error of a write the database refused (PRODUCT §2.17), after the collection's transaction
 * was rolled back: a column rule (NOT NULL, UNIQUE, CHECK, foreign key, length, type) names the
 * system, the collection and the column (from PostgreSQL's `column`/`constraint` fields, MySQL's
 * message read from its end, a constraint resolved through the catalog), never the value or the
 * URL. Any other failure is classified as before. Never throws: a failed lookup names less.
 */
export async function refusedWrite(session: SqlSession, error: unknown, at: WriteAt): Promise<ConnectorError> {
  const { reason, code } = classifyDriverError(error);
  if (!RULES.has(reason)) return asConnectorError(error, at.system, at.collection);
  const place = await locate(session, at, refusalHints(error)).catch(() => ({ column: null, constraint: null }));
  return new ConnectorError(reason, at.system, at.collection, code, place);
}
