import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PrivacyRequestRow } from '../../modules/privacy-requests/privacy-request.repository.js';

/** What a handler gets: the transaction its effects must use, the claimed request, the time, the pseudonym key. */
export interface HandlerContext {
  tx: Transaction<DB>;
  request: PrivacyRequestRow;
  now: Date;
  pseudonymKey: string;
}

/**
 * What a handler decided. `completed` stores `package` (access/export, personal data) and/or
 * `report` (deletion/correction, no personal data) in `request_results`; `action_required`
 * parks the request until an operator acts (correction waits for corrected values).
 */
export type HandlerOutcome =
  { status: 'completed'; package?: unknown; report?: unknown } | { status: 'action_required'; reason: string };

/**
 * Processes one request inside `ctx.tx`. Must be idempotent: if the worker dies before commit,
 * the transaction rolls back and the request runs again. Throws to fail the attempt (retried).
 */
export type RequestHandler = (ctx: HandlerContext) => Promise<HandlerOutcome>;
