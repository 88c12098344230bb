import type { Executor } from '../../db/executor.js';
import { statusTokenHash } from './privacy-center.fns.js';

/**
 * The status page's capability check (PRODUCT §2.15): a token opens the page of the one request
 * it was issued for, in its workspace. Tokens are stored as SHA-256 hashes only.
 */
export function createCenterStatusService(deps: { db: Executor }) {
  const { db } = deps;
  return {
    /**
     * Whether `token` opens request `requestId` of `workspaceId`.
     * @returns the extension reason the person was told (or null), or undefined for a wrong token.
     */
    async open(workspaceId: string, requestId: string, token: string): Promise<{ extensionReason: string | null } | undefined> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
      const row = await db
        .selectFrom('privacy_center_status_tokens as t')
        .leftJoin('request_notify_addresses as n', 'n.request_id', 't.request_id')
        .select(['t.request_id', 'n.extension_reason'])
        .where('t.token_hash', '=', statusTokenHash(token))
        .where('t.request_id', '=', requestId)
        .where('t.workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return row ? { extensionReason: row.extension_reason ?? null } : undefined;
    },
  };
}

export type CenterStatusService = ReturnType<typeof createCenterStatusService>;
