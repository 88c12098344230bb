import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';

/**
 * Fewer index pages per filing (issue 13's speed budget: the indexes of 0101 cost the `create`
 * bench row more than 10 % on SQLite). Three changes, each checked with EXPLAIN in
 * test/integration/audit/audit-queue-indexes.test.ts and test/integration/db/growth-indexes.test.ts:
 *
 * - **One subject index instead of two.** 0004 indexed `(workspace_id, subject_provider,
 *   subject_id)` for a subject's requests within a workspace; 0101 added `(subject_id,
 *   subject_provider)` for subject search across workspaces. Both keys are as random as subject
 *   ids, so each wrote its own scattered page per filing. `privacy_requests_subject_key_idx`,
 *   led by the subject id, serves both: within a workspace all three columns are compared with
 *   `=` (their order does not matter to either planner); across workspaces the first one or two.
 * - **The target index leaves requests out.** `audit_events_target_idx` becomes partial, `WHERE
 *   target_type <> 'privacy_request'`: a request's entries are found by `request_id`
 *   (`audit_events_request_idx`, the timeline), so filing no longer writes them into a second
 *   index. Queries by another target type repeat that predicate as a literal
 *   (`listAuditEvents`), which is how both planners prove the partial index applies.
 * - **The lease index holds leases only.** `privacy_requests_lease_idx` (0301) becomes partial,
 *   `WHERE lease_expires_at IS NOT NULL`: a request has a lease only while a worker holds it
 *   (filing, finishing and giving back all clear it), so the index holds the requests in hand
 *   instead of every request, and filing writes nothing to it. The claim's `lease_expires_at < ?`
 *   implies the predicate for both planners (a comparison is never true of NULL).
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, 'privacy_requests_subject_key_idx', 'privacy_requests', [
    'subject_id',
    'subject_provider',
    'workspace_id',
  ]);
  await db.schema.dropIndex('privacy_requests_subject_idx').execute();
  await db.schema.dropIndex('privacy_requests_subject_id_idx').execute();
  await db.schema.dropIndex('audit_events_target_idx').execute();
  await createIndex(db, 'audit_events_target_idx', 'audit_events', ['target_type', 'target_id', 'seq'], (index) =>
    index.where(sql.ref('target_type'), '<>', sql.lit('privacy_request')),
  );
  await db.schema.dropIndex('privacy_requests_lease_idx').execute();
  await createIndex(db, 'privacy_requests_lease_idx', 'privacy_requests', ['status', 'lease_expires_at'], (index) =>
    index.where(sql.ref('lease_expires_at'), 'is not', null),
  );
}

/** Restores the indexes {@link up} replaced. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('privacy_requests_lease_idx').execute();
  await createIndex(db, 'privacy_requests_lease_idx', 'privacy_requests', ['status', 'lease_expires_at']);
  await db.schema.dropIndex('audit_events_target_idx').execute();
  await createIndex(db, 'audit_events_target_idx', 'audit_events', ['target_type', 'target_id', 'seq']);
  await createIndex(db, 'privacy_requests_subject_idx', 'privacy_requests', ['workspace_id', 'subject_provider', 'subject_id']);
  await createIndex(db, 'privacy_requests_subject_id_idx', 'privacy_requests', ['subject_id', 'subject_provider']);
  await db.schema.dropIndex('privacy_requests_subject_key_idx').execute();
}
