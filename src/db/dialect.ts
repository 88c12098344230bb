import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Executor } from './executor.js';
import { isPostgres } from './locking.js';

/**
 * A repository step written once per dialect: `forms.sqlite` or `forms.postgres`, chosen by the
 * database `db` talks to. Lets a repository state a dialect-specific statement as data, so the
 * choice lives here and services run one algorithm on both databases.
 *
 * @returns a function with the forms' signature that runs the matching form.
 */
export function byDialect<A extends unknown[], R>(forms: {
  sqlite: (db: Executor, ...args: A) => R;
  postgres: (db: Executor, ...args: A) => R;
}): (db: Executor, ...args: A) => R {
  return (db, ...args) => (isPostgres(db) ? forms.postgres(db, ...args) : forms.sqlite(db, ...args));
}

/**
 * The whole milliseconds from `from` to `to` (RFC 3339 times stored as text), as an SQL integer
 * expression: what `Date.parse(to) - Date.parse(from)` gives. SQLite through `julianday` (its
 * error is far below a millisecond, so the rounding is exact), PostgreSQL through `timestamptz`.
 */
export function millisecondsBetween(db: Executor, from: Expression<string>, to: Expression<string>): RawBuilder<number | string> {
  return isPostgres(db)
    ? sql<string>`round(extract(epoch from (cast(${to} as timestamptz) - cast(${from} as timestamptz))) * 1000)::bigint`
    : sql<number>`cast(round((julianday(${to}) - julianday(${from})) * 86400000) as integer)`;
}
