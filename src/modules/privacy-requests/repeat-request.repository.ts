import { sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { EMAIL_PROVIDER, normalizeEmail, OPEN_STATUSES } from '../request-model/request-model.js';

/** What a new request is compared with to find the request it repeats (PRODUCT §2.20). */
export interface RepeatQuery {
  workspaceId: string;
  requestType: string;
  /**
   * Every identity of the matched subject (PRODUCT §2.13): `(provider, account id)` pairs; a pair
   * with provider `email` matches an address trimmed and without regard to case.
   */
  identities: readonly { provider: string; account_id: string }[];
  /** A completed request counts when its `completed_at` is at or after this time (RFC 3339 UTC). */
  completedSince: string;
}

/**
 * The id of the most recent request (by `created_at`, then id) of the workspace with the same
 * type, naming any of the identities, that is open (any non-final status) or `completed` at or
 * after `completedSince`; undefined when there is none. Rejected, canceled and failed requests
 * never count. Each branch of the identity OR names the workspace, so each is one index search:
 * `privacy_requests_subject_key_idx` for an account, `privacy_requests_email_subject_idx` (its
 * predicate as a literal, which is how both planners prove the partial index applies) for an
 * address.
 */
export async function findRepeatedRequestId(db: Executor, q: RepeatQuery): Promise<string | undefined> {
  if (q.identities.length === 0) return undefined;
  const row = await db
    .selectFrom('privacy_requests')
    .select('id')
    .where((eb) =>
      eb.or(
        q.identities.map((identity) =>
          identity.provider === EMAIL_PROVIDER
            ? eb.and([
                eb('subject_provider', '=', sql.lit(EMAIL_PROVIDER)),
                eb(eb.fn('lower', [eb.fn('trim', ['subject_id'])]), '=', normalizeEmail(identity.account_id)),
                eb('workspace_id', '=', q.workspaceId),
              ])
            : eb.and([
                eb('subject_id', '=', identity.account_id),
                eb('subject_provider', '=', identity.provider),
                eb('workspace_id', '=', q.workspaceId),
              ]),
        ),
      ),
    )
    .where('request_type', '=', q.requestType)
    .where((eb) =>
      eb.or([
        eb('status', 'in', [...OPEN_STATUSES]),
        eb.and([eb('status', '=', 'completed'), eb('completed_at', '>=', q.completedSince)]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
