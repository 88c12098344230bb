import type { Kysely } from 'kysely';
import { addColumns, dropColumns } from './statements.js';

/**
 * The privacy center's opt-in with a code (issue 36, PRODUCT §2.18; 11 CCR §7028's two steps):
 * `privacy_center_submissions.opt_in_kinds` (text, JSON array of opt-out kinds; NULL for a
 * request's submission). An opt-in's submission has `request_type` `opt_in` and waits for its
 * code as a request's does; verified, it files one opt-in per kind.
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'privacy_center_submissions', [['opt_in_kinds', 'text']]);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropColumns(db, 'privacy_center_submissions', ['opt_in_kinds']);
}
