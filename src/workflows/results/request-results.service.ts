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
import type { KeptItem } from '../../modules/subject-data/erasure-report.fns.js';

/** What a request's result is: the access/export `package` or the deletion/correction `report`. */
export type ResultKind = 'package' | 'report';

const KINDS = {
  package: { types: ['access', 'export'], column: 'package' },
  report: { types: ['deletion', 'correction'], column: 'report' },
} as const;

/**
 * Reading a result: its JSON text as served (see {@link createRequestResultsService}) with the
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
 * Reads what processing a request produced (PRODUCT.md §2.3 "Results", §2.11), for a reader.
 * Stored results are served with what later releases state in them: a package built before it
 * named its controller gets the workspace's current profile, the rights and the automated
 * decision-making statement ({@link withStatements}); a report gets its request, workspace,
 * subject and times, and for a deletion what it did not touch ({@link reportWithContext}).
 */
export function createRequestResultsService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  async function served(kind: ResultKind, json: string, request: PrivacyRequestRow): Promise<string> {
    if (kind === 'report') return reportWithContext(json, request);
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
    result: { request_id: string; package_fetched_at: string | null; package_erasure_held: string | null },
    pkg: string,
    deliver: boolean,
  ): Promise<string | null> {
    if (result.package_fetched_at === null) {
      if (!deliver) return pkg;
      if (await markPackageFetched(db, result.request_id, toTimestamp(clock()))) return pkg;
      // Another fetch delivered it between our read and our mark: this one comes after it.
    }
    return deliveredPackage(pkg, result.package_erasure_held);
  }

  return {
    /**
     * What completed deletion `id` kept, and why, in plain words to the person (PRODUCT §2.17:
     * the deletion confirmation of the status page and the "done" mail), from its stored report.
     * For the service's own use (the caller checked the person's capability); no principal.
     * @returns the items, or null when `id` is not a completed deletion with a report.
     */
    async deletionKept(id: string): Promise<KeptItem[] | null> {
      const request = await findRequestById(db, id);
      if (!request || request.request_type !== 'deletion' || request.status !== 'completed') return null;
      const report = (await findResult(db, id))?.report;
      if (!report) return null;
      const served = JSON.parse(reportWithContext(report, request)) as { kept?: KeptItem[] };
      return served.kept ?? null;
    },

    /**
     * The `kind` result of request `id` as `reader` may see it. With `deliver`, a package read
     * counts as its fetch (the package route and the person's letter link; a status page that
     * only looks whether there is one does not).
     * @returns the stored JSON text, or why it cannot be given (see {@link ResultRead}).
     */
    async read(reader: Principal, id: string, kind: ResultKind, options: { deliver?: boolean } = {}): Promise<ResultRead> {
      const request = await findRequestById(db, id);
      if (!request || !coversWorkspace(reader, request.workspace_id)) return { kind: 'not_found' };
      const { types, column } = KINDS[kind];
      if (!(types as readonly string[]).includes(request.request_type))
        return { kind: 'wrong_type', requestType: request.request_type };
      if (request.status !== 'completed') return { kind: 'not_completed', status: request.status };
      const result = await findResult(db, id);
      const expiredAt = kind === 'package' ? packageExpiredAt(result, toTimestamp(clock())) : null;
      if (expiredAt) return { kind: 'expired', at: expiredAt };
      const stored = result?.[column];
      const json = stored && result && kind === 'package' ? await delivered(result, stored, options.deliver ?? false) : stored;
      if (!json) return { kind: 'erased' };
      return { kind: 'found', json: await served(kind, json, request), request };
    },
  };
}

export type RequestResultsService = ReturnType<typeof createRequestResultsService>;
