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
