import type { Kysely } from 'kysely';
import { createIndex } from './columns.js';
import { dropIndexes } from './statements.js';

/**
 * Drops `drp_requests_privacy_request_idx` (issue 37, the exercise's speed): no statement looks a
 * DRP record up by its privacy request (the record's state is read from the record, joined to
 * what it filed through the record's own columns; the callbacks' sweep walks the records by
 * `request_id`), so every exercise wrote an index entry that nothing read. Frozen: never edit
 * after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await dropIndexes(db, ['drp_requests_privacy_request_idx']);
}

/** Creates the index again, as 2026-12-08T0401-drp did. */
export async function down(db: Kysely<any>): Promise<void> {
  await createIndex(db, 'drp_requests_privacy_request_idx', 'drp_requests', ['privacy_request_id']);
}
