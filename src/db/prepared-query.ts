import { type Compilable, type CompiledQuery, createQueryId, type QueryResult } from 'kysely';
import type { Executor } from './executor.js';
import { isPostgres } from './locking.js';

/** SQL text of every query compiled by {@link preparedQuery} for PostgreSQL → its statement name. */
const statementNames = new Map<string, string>();

/**
 * The name under which PostgreSQL connections prepare `sql` (a server-side prepared statement:
 * parsed and planned once per connection), or undefined for SQL that {@link preparedQuery} did
 * not compile. Used by db/database.ts; SQLite statements are cached by text there already.
 */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

/**
 * Registers `sql` (PostgreSQL text) to run as a named, server-side prepared statement
 * ({@link statementName}), for SQL built once outside {@link preparedQuery} (db/multi-row-insert.ts).
 */
export function registerStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `pq${statementNames.size + 1}`);
}

/** Stands for one named parameter while a query is built; replaced by its value at each run. */
class Placeholder {
  constructor(readonly name: string) {}
}

/**
 * A query built and compiled once per dialect, then run with new parameter values: Kysely builds
 * and compiles a query anew on every call, which costs more than running a small statement on
 * SQLite (whose prepared statements db/database.ts already caches by SQL text). On PostgreSQL the
 * compiled text is also registered under a statement name ({@link statementName}), so each
 * connection parses and plans it once.
 *
 * `build` receives `params` whose values are placeholders; use each only as a value (in
 * `values`, `set` or a comparison), never to choose the query's shape.
 *
 * @param names - every parameter `build` uses (a row's columns, for an insert).
 * @returns a runner: `(db, params) => QueryResult`, on a database or a transaction.
 * @throws (rejects) Error at the first run when `build` consumed a placeholder in a way that is not a
 *   plain value (e.g. spread it into SQL), so the compiled query would not take it.
 */
export function preparedQuery<P extends Record<string, unknown>, O>(
  names: readonly (keyof P & string)[],
  build: (db: Executor, params: P) => Compilable<O>,
): (db: Executor, params: P) => Promise<QueryResult<O>> {
  const compiled = new Map<'postgres' | 'sqlite', CompiledQuery<O>>();

  function compile(db: Executor, dialect: 'postgres' | 'sqlite'): CompiledQuery<O> {
    const placeholders = Object.fromEntries(names.map((name) => [name, new Placeholder(name)])) as unknown as P;
    const query = build(db, placeholders).compile();
    const used = new Set(query.parameters.filter((p): p is Placeholder => p instanceof Placeholder).map((p) => p.name));
    const missing = names.filter((name) => !used.has(name));
    if (missing.length > 0) throw new Error(`prepared query does not bind ${missing.join(', ')} as values`);
    compiled.set(dialect, query);
    if (dialect === 'postgres') registerStatement(query.sql);
    return query;
  }

  return async (db, params) => {
    const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
    const query = compiled.get(dialect) ?? compile(db, dialect);
    const parameters = query.parameters.map((p) => (p instanceof Placeholder ? params[p.name] : p));
    return db.executeQuery<O>({ ...query, parameters, queryId: createQueryId() });
  };
}
