import { classifyDriverError, ConnectorError } from './connector.errors.js';
import type { Dataset } from './dataset.types.js';
import type { Row, SqlSession } from './sql-session.js';
import { type Condition, selectRows } from './statements.fns.js';
import type { Traversal } from './traversal.fns.js';

/** Identities supplied for a subject: name (`email`, `username`, `github_id`, …) → values. */
export type Identities = Readonly<Record<string, readonly string[]>>;

/** A statement a run executes or plans: placeholders only, never values, with the rows it touches. */
export interface PlannedStatement {
  readonly collection: string;
  readonly operation: 'select' | 'update' | 'delete';
  readonly sql: string;
  readonly rows: number;
}

/** What the access pass found: each collection's rows (declared fields), the lookups and the statements run. */
export interface ReadResult {
  readonly rows: ReadonlyMap<string, readonly Row[]>;
  readonly conditions: ReadonlyMap<string, readonly Condition[]>;
  readonly statements: readonly PlannedStatement[];
}

/** Each distinct non-null value once (by type and text), in first-seen order. */
export function distinct(values: readonly unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const v of values) if (v !== null && v !== undefined) seen.set(`${typeof v}:${String(v)}`, v);
  return [...seen.values()];
}

/** Wraps a driver error into a ConnectorError naming the system and collection only. */
export function asConnectorError(error: unknown, system: string, collection: string | null): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const { reason, code } = classifyDriverError(error);
  return new ConnectorError(reason, system, collection, code);
}

/**
 * The access pass (PRODUCT §2.14): in traversal order, in one read-only transaction, each
 * collection's rows whose identity fields hold a supplied identity or whose reference fields hold
 * a value found earlier. @throws ConnectorError (`row_cap` naming the collection when more than
 * `maxRows` match; any database failure, classified).
 */
export async function readSubjectRows(
  session: SqlSession,
  input: { dataset: Dataset; traversal: Traversal; identities: Identities; maxRows: number; system: string },
): Promise<ReadResult> {
  const rows = new Map<string, Row[]>();
  const conditions = new Map<string, Condition[]>();
  const statements: PlannedStatement[] = [];
  let current: string | null = null;
  try {
    await session.run(session.dialect.beginReadOnly, []);
    for (const step of input.traversal.access) {
      current = step.collection.name;
      const lookups = step.criteria.map((c): Condition => ({
        column: c.field,
        values: distinct(
          'identity' in c.source
            ? (input.identities[c.source.identity] ?? [])
            : (rows.get(c.source.collection) ?? []).map((r) => r[(c.source as { field: string }).field]),
        ),
      }));
      conditions.set(current, lookups);
      const select = selectRows(session.dialect, input.dataset, step.collection, lookups, input.maxRows);
      const found = select ? (await session.run(select.sql, select.params)).rows : [];
      if (found.length > input.maxRows) throw new ConnectorError('row_cap', input.system, current);
      rows.set(current, found);
      if (select) statements.push({ collection: current, operation: 'select', sql: select.sql, rows: found.length });
    }
    current = null;
    await session.run('COMMIT', []);
  } catch (error) {
    await session.run('ROLLBACK', []).catch(() => undefined);
    throw asConnectorError(error, input.system, current);
  }
  return { rows, conditions, statements };
}
