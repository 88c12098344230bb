import type { Kysely } from 'kysely';

/**
 * What a data system's controller declares about its processing (issue 32 item 8, PRODUCT §2.17,
 * GDPR Art. 15(1)(a), (c), (d), (g)): `purposes`, `recipients`, `retention` and `source` of
 * `data_systems`, each a JSON array of plain-text strings, NULL when not declared (existing
 * systems: not declared; their letters say so). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['purposes', 'recipients', 'retention', 'source'])
    await db.schema.alterTable('data_systems').addColumn(column, 'text').execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['source', 'retention', 'recipients', 'purposes'])
    await db.schema.alterTable('data_systems').dropColumn(column).execute();
}
