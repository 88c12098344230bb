import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createIndex, ID, TIME, DIGEST, notNull, primaryKey } from './columns.js';
import { leaseColumns } from './table-shapes.js';
import { addColumns, dropColumns, dropIndexes, dropTables } from './statements.js';

const GENESIS = '0'.repeat(64);

// Frozen copy of the audit hash at the time of this migration (migrations import no app code).
function chainHash(prev: string, row: Record<string, unknown>, seq: number): string {
  const body = JSON.stringify([
    seq,
    row.occurred_at,
    row.actor,
    row.action,
    row.target_type,
    row.target_id,
    row.workspace_id,
    row.details,
  ]);
  return createHash('sha256').update(`${prev}\n${body}`).digest('hex');
}

async function addProcessingColumns(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'privacy_requests', leaseColumns('varchar(100)'));
  await createIndex(db, 'privacy_requests_status_idx', 'privacy_requests', ['status', 'id']);
  // The retention sweeper deletes change events by (workspace, repository) and age.
  await createIndex(db, 'change_events_retention_idx', 'change_events', ['workspace_id', 'repository', 'received_at']);
  await addColumns(db, 'audit_events', [
    ['seq', 'integer'],
    ['prev_hash', DIGEST],
    ['hash', DIGEST],
  ]);
}

/** Chains the audit entries written before this migration, in id order, and records the head. */
async function chainExisting(db: Kysely<any>): Promise<void> {
  const rows = await db.selectFrom('audit_events').selectAll().orderBy('id').execute();
  let prev = GENESIS;
  for (const [i, row] of rows.entries()) {
    const hash = chainHash(prev, row, i + 1);
    await db
      .updateTable('audit_events')
      .set({ seq: i + 1, prev_hash: prev, hash })
      .where('id', '=', row.id)
      .execute();
    prev = hash;
  }
  await db.insertInto('audit_head').values({ id: 1, seq: rows.length, hash: prev }).execute();
}

/**
 * Request processing: lease columns on privacy requests (the table is the job queue), request
 * results (packages and erasure reports), and the audit hash chain (seq, prev_hash, hash, plus a
 * one-row head that serialises appends). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addProcessingColumns(db);
  await db.schema
    .createTable('request_results')
    .addColumn('request_id', ID, primaryKey)
    .addColumn('package', 'text')
    .addColumn('report', 'text')
    .addColumn('created_at', TIME, notNull)
    .execute();
  await db.schema
    .createTable('audit_head')
    .addColumn('id', 'integer', primaryKey)
    .addColumn('seq', 'integer', notNull)
    .addColumn('hash', DIGEST, notNull)
    .execute();
  await chainExisting(db);
  await createIndex(db, 'audit_events_seq_key', 'audit_events', ['seq'], (index) => index.unique());
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexes(db, ['audit_events_seq_key']);
  await dropTables(db, ['audit_head', 'request_results']);
  await dropIndexes(db, ['privacy_requests_status_idx', 'change_events_retention_idx']);
  await dropColumns(db, 'audit_events', ['seq', 'prev_hash', 'hash']);
  await dropColumns(db, 'privacy_requests', ['attempts', 'lease_owner', 'lease_expires_at', 'next_attempt_at']);
}
