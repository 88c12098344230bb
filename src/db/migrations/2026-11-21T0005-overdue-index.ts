import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';

/**
 * The list endpoint's `overdue` filter (status open and `coalesce(extended_due_at, due_at)`
 * before now): with this index a workspace's overdue requests are found by a range search per
 * open status instead of a walk through all its requests, newest first, until a page is full (on
 * the growth benchmark's seeded database ~140 ms a page). The expression is the one
 * `listRequests` (privacy-request.repository.ts) compares in its subquery, so both databases
 * match it. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, 'privacy_requests_workspace_status_due_idx', 'privacy_requests', ['workspace_id', 'status'], (index) =>
    index.expression(sql`coalesce(extended_due_at, due_at)`),
  );
}

/** Drops the index {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('privacy_requests_workspace_status_due_idx').execute();
}
