import type { Kysely } from 'kysely';

/**
 * The requests report over a period (`GET /api/v1/reports/requests?from=…&to=…`, `reportFigures`
 * in request-report.repository.ts: `workspace_id IN (…)` and `received_at` in the range): without
 * this index both planners read every request of the workspace (through a workspace index, a
 * table row each) and drop those outside the period, so a yearly report of a workspace with
 * five years of requests reads all five. With `(workspace_id, received_at)` it reads the period's
 * requests only. One more index entry per filing (measured in bench/README.md, "The officer's
 * day": within this machine's noise, a few µs per insert).
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('privacy_requests_workspace_received_idx')
    .on('privacy_requests')
    .columns(['workspace_id', 'received_at'])
    .execute();
}

/** Drops the index {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('privacy_requests_workspace_received_idx').execute();
}
