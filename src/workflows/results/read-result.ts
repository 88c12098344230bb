import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { needsStatements, withStatements } from '../../modules/subject-data/package-statements.fns.js';
import { regulationsOf } from '../../modules/subject-data/rights.fns.js';
import { workspaceController } from '../../modules/controllers/controller.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import { coversWorkspace } from '../../modules/principals/principal.js';
import { findRequestById } from '../../modules/privacy-requests/privacy-request.repository.js';
import { type PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { reportWithContext } from './report-context.fns.js';
import { findResult, markPackageFetched } from '../../modules/privacy-requests/result.repository.js';
import { deliveredPackage } from '../../modules/subject-data/package-delivery.fns.js';
import { listRedactions } from '../../modules/package-review/package-redaction.repository.js';
import { applyRedactions } from '../../modules/package-review/redaction.fns.js';
import { isAwaitingReview } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';

/** What a request's result is: the access/export `package` or the deletion/correction `report`. */
export type ResultKind = 'package' | 'report';

const KINDS = {
  package: { types: ['access', 'export'], column: 'package' },
  report: { types: ['deletion', 'correction'], column: 'report' },
} as const;

/**
 * Reading a result: its JSON text as served (see {@link readResult}) with the
 * request it belongs to, or why there is none. `not_found` also for a request outside
 * the reader's workspaces (no probing for ids); `wrong_type` (an access request has no report);
 * `not_completed`; `expired` (past `PACKAGE_RETENTION_DAYS` or its copied data's retention, with
 * the time it expired); `erased` (by a later deletion request of the same subject).
 */
export type ResultRead =
  | { kind: 'found'; json: string; request: PrivacyRequestRow }
  | { kind: 'not_found' }
  | { kind: 'wrong_type'; requestType: string }
  | { kind: 'not_completed'; status: string }
  | { kind: 'expired'; at: string }
  | { kind: 'erased' };

/**
 * When the request's package expired (deleted by the retention sweeper, or past its expiry and
 * not swept yet), or null while it is current or was never there.
 */
function packageExpiredAt(
  result: { package: string | null; package_expires_at: string | null; package_expired_at: string | null } | undefined,
  now: string,
): string | null {
  if (result?.package_expired_at) return result.package_expires_at ?? result.package_expired_at;
  if (result?.package && result.package_expires_at && result.package_expires_at <= now) return result.package_expires_at;
  return null;
}

/**
 * A package with the values its review withheld replaced (PRODUCT §2.20): `[withheld: <reason>]`
 * at each redaction's path. Parsed and written again only when the request has a redaction.
 */
async function withRedactions(db: Executor, json: string, requestId: string): Promise<string> {
  const redactions = await listRedactions(db, requestId);
  if (redactions.length === 0) return json;
  return JSON.stringify(applyRedactions(JSON.parse(json) as unknown, redactions));
}

async function served(
  db: Executor,
  kind: ResultKind,
  stored: string,
  request: PrivacyRequestRow,
  unredacted: boolean,
): Promise<string> {
  if (kind === 'report') return reportWithContext(stored, request);
  const json = unredacted ? stored : await withRedactions(db, stored, request.id);
  if (!needsStatements(json)) return json;
  return withStatements(json, await workspaceController(db, request.workspace_id), regulationsOf(request.regulation));
}
/**
 * The package as this read gets it (PRODUCT §2.13): whole before its first fetch; the first
 * fetch (`deliver`) records the delivery and gets it whole; after that, without what a deletion
 * held on it while it was in transit (null when that was all: erased; the retention sweep
 * erases it for good).
 */
async function delivered(
  deps: { db: Executor; clock: Clock },
  result: { request_id: string; package_fetched_at: string | null; package_erasure_held: string | null },
  pkg: string,
  deliver: boolean,
): Promise<string | null> {
  const { db, clock } = deps;
  if (result.package_fetched_at === null) {
    if (!deliver) return pkg;
    if (await markPackageFetched(db, result.request_id, toTimestamp(clock()))) return pkg;
    // Another fetch delivered it between our read and our mark: this one comes after it.
  }
  return deliveredPackage(pkg, result.package_erasure_held);
}

/**
 * Reads what processing a request produced (PRODUCT.md §2.3 "Results", §2.11), for a reader.
 * Stored results are served with what later releases state in them: a package built before it
 * named its controller gets the workspace's current profile, the rights and the automated
 * decision-making statement ({@link withStatements}); a report gets its request, workspace,
 * subject and times, and for a deletion what it did not touch ({@link reportWithContext}).
 *
 * The `kind` result of request `id` as `reader` may see it. With `deliver`, a package read
 * counts as its fetch (the package route and the person's letter link; a status page that
 * only looks whether there is one does not). A package is served with its review's redactions
 * applied (PRODUCT §2.20) unless `unredacted` (the caller checked the `admin` scope). With
 * `duringReview` (an operator) a package that waits for its review (`awaiting_review`) is read
 * too, and that read is never its delivery; the person's readers never pass it.
 * @returns the stored JSON text, or why it cannot be given (see {@link ResultRead}).
 */
export async function readResult(
  deps: { db: Executor; clock: Clock },
  reader: Principal,
  id: string,
  kind: ResultKind,
  options: { deliver?: boolean; duringReview?: boolean; unredacted?: boolean } = {},
): Promise<ResultRead> {
  const { db, clock } = deps;
  const request = await findRequestById(db, id);
  if (!request || !coversWorkspace(reader, request.workspace_id)) return { kind: 'not_found' };
  const { types, column } = KINDS[kind];
  if (!(types as readonly string[]).includes(request.request_type))
    return { kind: 'wrong_type', requestType: request.request_type };
  const inReview = options.duringReview === true && isAwaitingReview(request);
  if (request.status !== 'completed' && !inReview) return { kind: 'not_completed', status: request.status };
  const result = await findResult(db, id);
  const expiredAt = kind === 'package' ? packageExpiredAt(result, toTimestamp(clock())) : null;
  if (expiredAt) return { kind: 'expired', at: expiredAt };
  const stored = result?.[column];
  const deliver = (options.deliver ?? false) && !inReview;
  const json = stored && result && kind === 'package' ? await delivered(deps, result, stored, deliver) : stored;
  if (!json) return { kind: 'erased' };
  return { kind: 'found', json: await served(db, kind, json, request, options.unredacted ?? false), request };
}
