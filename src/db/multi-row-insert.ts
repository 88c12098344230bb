import { CompiledQuery, type QueryResult } from 'kysely';
import type { Executor } from './executor.js';
import { isPostgres } from './locking.js';
import { registerStatement } from './prepared-query.js';

/** Rows per statement at most (PostgreSQL takes 65535 parameters, SQLite 32766: 500 rows of up to 65 columns). */
export const MULTI_ROW_CHUNK = 500;

/**
 * `INSERT INTO table (columns) VALUES (…), (…) tail` for any number of rows, its SQL text built
 * once per dialect and row count, and run as a named (server-side prepared) statement on
 * PostgreSQL (db/pg-named-statements.ts): a write batch's rows in one statement, without what
 * Kysely's `insertInto(table).values(rows)` costs on every call (a node per value, then a
 * compile; it grows with rows × columns), nor a parse and plan per statement on the server.
 * SQLite caches its prepared statements by text (db/database.ts).
 *
 * @param table - the table, and `columns` in the order values are bound (snake_case names).
 * @param tail - SQL after the values (e.g. `on conflict (…) do nothing returning id`), the same
 *   on both dialects; the repository that owns the table writes it.
 * @returns a runner that inserts `rows` (every row has every column; a value is bound as is)
 *   per {@link MULTI_ROW_CHUNK} rows and answers each chunk's returned rows, in order; nothing
 *   for no rows.
 */
export function multiRowInsert<R extends Record<string, unknown>, O = never>(
  table: string,
  columns: readonly (keyof R & string)[],
  tail = '',
): (db: Executor, rows: readonly R[]) => Promise<O[]> {
  const texts = new Map<string, string>();
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `;

  function text(postgres: boolean, rows: number): string {
    const key = `${postgres ? 'p' : 's'}${rows}`;
    let sql = texts.get(key);
    if (sql === undefined) {
      let n = 0;
      const tuple = () => `(${columns.map(() => (postgres ? `$${++n}` : '?')).join(', ')})`;
      sql = head + Array.from({ length: rows }, tuple).join(', ') + (tail === '' ? '' : ` ${tail}`);
      if (postgres) registerStatement(sql);
      texts.set(key, sql);
    }
    return sql;
  }

  return async (db, rows) => {
    const postgres = isPostgres(db);
    const returned: O[] = [];
    for (let i = 0; i < rows.length; i += MULTI_ROW_CHUNK) {
      const chunk = rows.slice(i, i + MULTI_ROW_CHUNK);
      const parameters: unknown[] = [];
      for (const row of chunk) for (const column of columns) parameters.push(row[column]);
      const result: QueryResult<O> = await db.executeQuery(CompiledQuery.raw(text(postgres, chunk.length), parameters));
      returned.push(...result.rows);
    }
    return returned;
  };
}
