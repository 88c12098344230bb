import type { Kysely } from 'kysely';
import { createIndex, notNull, TIME } from './columns.js';
import { workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * The review before release (issue 38, PRODUCT §2.20): `package_redactions`, each value an
 * operator withholds from an access or export package before it is released, by JSON Pointer
 * (`path`, RFC 6901) with the reason the person reads in its place. It never holds the withheld
 * value: the package itself stays as found in `request_results` (an admin may read it), and
 * every reader of the package gets it with the redactions applied. `created_by` is the principal
 * (as the audit trail names it) whose redaction keeps them from releasing (four eyes).
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await workspaceTable(db, 'package_redactions', 'request_id')
    .addColumn('path', 'text', notNull)
    .addColumn('reason', 'text', notNull)
    .addColumn('created_by', 'varchar(300)', notNull)
    .addColumn('created_by_name', 'varchar(300)', notNull)
    .addColumn('created_at', TIME, notNull)
    .execute();
  await createIndex(db, 'package_redactions_request_idx', 'package_redactions', ['request_id', 'id']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['package_redactions']);
}
