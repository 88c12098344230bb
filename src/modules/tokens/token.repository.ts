import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { ApiTokenTable } from '../../db/tables/token.table.js';

export type ApiTokenRow = Selectable<ApiTokenTable>;

/** Inserts a token row (hash only); `systems` absent: NULL (any system). */
export async function insertToken(db: Executor, row: Insertable<ApiTokenTable>): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** The unrevoked token with this hash, or undefined. */
export async function findActiveTokenByHash(db: Executor, tokenHash: string): Promise<ApiTokenRow | undefined> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Every token, oldest first. */
export async function listTokens(db: Executor): Promise<ApiTokenRow[]> {
  return db.selectFrom('api_tokens').selectAll().orderBy('id').execute();
}

/** Marks a token revoked; returns false when no unrevoked token has this id. */
export async function revokeToken(db: Executor, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
