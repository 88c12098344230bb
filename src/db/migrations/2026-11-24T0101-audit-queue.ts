import { type Kysely, sql } from 'kysely';
import { ID } from './columns.js';
import { addColumns, createIndexes, dropColumns, dropIndexes, type Index } from './statements.js';

/** The indexes this migration adds: name, table, columns (an expression where the column is `sql`). */
const INDEXES: Index[] = [
  // The audit trail API (PRODUCT §2.7): a request's timeline (its own and its data tasks'
  // entries), a workspace's entries, one target's entries; each oldest first by seq.
  ['audit_events_request_idx', 'audit_events', ['request_id', 'seq']],
  ['audit_events_workspace_idx', 'audit_events', ['workspace_id', 'seq']],
  ['audit_events_target_idx', 'audit_events', ['target_type', 'target_id', 'seq']],
  // The queue (PRODUCT §2.3): `sort=due_at`, earliest binding due date first, per workspace and
  // across all of them; `due_before` is a range on the same expression.
  ['privacy_requests_workspace_due_idx', 'privacy_requests', ['workspace_id', sql`coalesce(extended_due_at, due_at)`, 'id']],
  ['privacy_requests_due_idx', 'privacy_requests', [sql`coalesce(extended_due_at, due_at)`, 'id']],
  // Subject search without a workspace (`subject_id` alone or with `subject_provider`).
  ['privacy_requests_subject_id_idx', 'privacy_requests', ['subject_id', 'subject_provider']],
];

/**
 * The audit trail API and the cross-workspace queue (issue 13 items 1 and 2):
 *
 * - `audit_events.actor_name`: the operator's name as it was when the entry was written (the
 *   token's name, the OIDC display claim; the service's own name for `worker`…). NULL on
 *   entries written before this migration (the API shows the actor id instead). Part of the
 *   entry's hash when set (docs/decisions.md, "Audit actor names").
 * - `audit_events.request_id`: the privacy request an entry belongs to (its own entries and its
 *   data tasks'), so a request's timeline is one index range. Filled here for the entries about
 *   privacy requests written before (`target_id`).
 * - the indexes above, checked with EXPLAIN in test/integration/audit/audit-queue-indexes.test.ts and
 *   measured by `npm run bench:growth`.
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'audit_events', [
    ['actor_name', 'varchar(300)'],
    ['request_id', ID],
  ]);
  await db
    .updateTable('audit_events')
    .set((eb) => ({ request_id: eb.ref('target_id') }))
    .where('target_type', '=', 'privacy_request')
    .execute();
  await createIndexes(db, INDEXES);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexes(
    db,
    INDEXES.map(([name]) => name),
  );
  await dropColumns(db, 'audit_events', ['request_id', 'actor_name']);
}
