import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { findRow, updateRows } from '../../db/row-match.js';
import type { ApiTokenTable } from '../../db/tables/token.table.js';

export type ApiTokenRow = Selectable<ApiTokenTable>;

/** Inserts a token row (hash only); `systems` absent: NULL (any system). */
export async function insertToken(db: Executor, row: Insertable<ApiTokenTable>): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** The unrevoked token with this hash, or undefined. */
export async function findActiveTokenByHash(db: Executor, tokenHash: string): Promise<ApiTokenRow | undefined> {
  return findRow(db, 'api_tokens', { token_hash: tokenHash, revoked_at: null });
}

/** Every token, oldest first. */
export async function listTokens(db: Executor): Promise<ApiTokenRow[]> {
  return db.selectFrom('api_tokens').selectAll().orderBy('id').execute();
}

/** Marks a token revoked; returns false when no unrevoked token has this id. */
export async function revokeToken(db: Executor, id: string, at: string): Promise<boolean> {
  return (await updateRows(db, 'api_tokens', { revoked_at: at }, { id, revoked_at: null })) > 0n;
}
