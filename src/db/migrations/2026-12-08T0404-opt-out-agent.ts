import type { Kysely } from 'kysely';

/**
 * Opt-outs filed by an authorized agent (issue 37, PRODUCT §2.19): `opt_outs.agent`, JSON `{id,
 * name, drp_request_id, proof_ref}` of the agent (the resource's `agent`); null for every other
 * opt-out. Set at filing only. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('opt_outs').addColumn('agent', 'text').execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('opt_outs').dropColumn('agent').execute();
}
