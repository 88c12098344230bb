import type { Executor } from '../db/executor.js';

/** Stores (or replaces) what processing a request produced. */
export async function saveResult(db: Executor, requestId: string, pkg: unknown, report: unknown, at: string): Promise<void> {
  const row = {
    request_id: requestId,
    package: pkg === undefined ? null : JSON.stringify(pkg),
    report: report === undefined ? null : JSON.stringify(report),
    created_at: at,
  };
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
