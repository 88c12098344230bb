import type { Executor } from '../../db/executor.js';
import { statusTokenHash } from './privacy-center.fns.js';

/**
 * Makes `token` open the status page of request `requestId` of `workspaceId` (PRODUCT §2.15), for
 * a token the caller derived (a DRP results link, docs/decisions.md): its SHA-256 hash is stored
 * once; a second call stores nothing (the hash is the key; concurrent calls too).
 */
export async function ensureStatusToken(
  db: Executor,
  row: { token: string; requestId: string; workspaceId: string; at: string },
): Promise<void> {
  const tokenHash = statusTokenHash(row.token);
  const known = await db
    .selectFrom('privacy_center_status_tokens')
    .select('token_hash')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (known) return;
  await db
    .insertInto('privacy_center_status_tokens')
    .values({ token_hash: tokenHash, request_id: row.requestId, workspace_id: row.workspaceId, created_at: row.at })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}
