import type { Executor } from '../db/executor.js';

/** Stores (or replaces) what processing a request produced. */
export async function saveResult(db: Executor, requestId: string, pkg: unknown, report: unknown, at: string): Promise<void> {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  await saveResultJson(db, requestId, json(pkg), json(report), at);
}

/** {@link saveResult} with the package and report already serialized (null: none). */
export async function saveResultJson(
  db: Executor,
  requestId: string,
  pkg: string | null,
  report: string | null,
  at: string,
): Promise<void> {
  const row = { request_id: requestId, package: pkg, report, created_at: at };
  await db
    .insertInto('request_results')
    .values(row)
    .onConflict((oc) => oc.column('request_id').doUpdateSet({ package: row.package, report: row.report, created_at: at }))
    .execute();
}

/** What processing a request produced, or undefined. */
export async function findResult(db: Executor, requestId: string) {
  return db.selectFrom('request_results').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}
