import type { Kysely } from 'kysely';
import { createIndexes, dropIndexes, type Index } from './statements.js';

/** The indexes this migration adds: name, table, columns. */
const INDEXES: Index[] = [
  // Access/erasure: change events stored with the author's account id (`full` policies).
  ['change_events_author_account_idx', 'change_events', ['workspace_id', 'author_account_id']],
  // Access/erasure: the subject's other privacy requests.
  ['privacy_requests_subject_idx', 'privacy_requests', ['workspace_id', 'subject_provider', 'subject_id']],
  // The list endpoint's status filter, newest first.
  ['privacy_requests_workspace_status_idx', 'privacy_requests', ['workspace_id', 'status', 'id']],
  // Erasure: idempotency records replaying the subject's requests.
  ['idempotency_records_response_location_idx', 'idempotency_records', ['response_location']],
  // The retention sweeper: expired idempotency records and webhook deliveries.
  ['idempotency_records_expires_at_idx', 'idempotency_records', ['expires_at']],
  ['webhook_deliveries_expires_at_idx', 'webhook_deliveries', ['expires_at']],
];

/**
 * Indexes for large tables (issue 5, cost as data grows): every query an erasure, an access
 * package, the list endpoint and the retention sweeper run finds its rows through an index
 * instead of scanning the table (checked with EXPLAIN on SQLite and PostgreSQL on the growth
 * benchmark's 1 M change events and 100 k requests). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createIndexes(db, INDEXES);
}

/** Drops the indexes {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexes(
    db,
    INDEXES.map(([name]) => name),
  );
}
