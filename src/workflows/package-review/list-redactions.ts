import type { Executor } from '../../db/executor.js';
import { listRedactions } from '../../modules/package-review/package-redaction.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import { visibleRequest } from '../../modules/privacy-requests/visible-request.js';
import { type RedactionView, redactionView } from './redaction-view.js';

/**
 * `GET …/{id}/package/redactions` (PRODUCT §2.20): the redactions of a request's package, oldest
 * first, in any status (after release they are the record of what was withheld).
 * @throws RequestNotFoundError
 */
export async function listPackageRedactions(
  deps: { db: Executor },
  principal: Principal,
  requestId: string,
): Promise<RedactionView[]> {
  const request = await visibleRequest(deps.db, principal, requestId);
  return (await listRedactions(deps.db, request.id)).map(redactionView);
}
