import type { ControllerProfile } from '../../modules/controllers/controller.types.js';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import type { KeptItem } from '../../modules/subject-data/erasure-report.fns.js';
import type { ControllerService } from '../controllers/controller-profiles.js';
import type { RequestResultsService } from '../results/request-results.js';
import { openStatus, type StatusAccessServices, statusReader } from './open-status.js';

/** What the status page reads. */
export interface StatusPageServices extends StatusAccessServices {
  privacyCenter: Pick<PrivacyCenterSettingsService, 'get'>;
  controllers: Pick<ControllerService, 'get'>;
  requestResults: Pick<RequestResultsService, 'read' | 'deletionKept'>;
}

/** What the person's status page shows (PRODUCT §2.15, §2.17), before it is rendered. */
export interface StatusPageFacts {
  /** The center's title: its own, else "<controller> privacy center". */
  readonly title: string;
  readonly request: PrivacyRequestResource;
  /** The extension reason the person was told (from the status link's record), or null. */
  readonly extensionReason: string | null;
  readonly controller: ControllerProfile | null;
  /** A completed access or export whose package can be fetched now (the letter and the JSON link). */
  readonly answerReady: boolean;
  /** A completed deletion's stored report (what the systems did, for what they could not search), or null. */
  readonly deletionReport: unknown;
  /** What a completed deletion kept, and why, or null. */
  readonly kept: KeptItem[] | null;
}

/** The status page as read: not found (wrong token, id or workspace), gone (the answer expired or was erased: 410), or its facts. */
export type StatusPageRead =
  | { readonly kind: 'not_found' }
  | { readonly kind: 'gone'; readonly title: string }
  | ({ readonly kind: 'found' } & StatusPageFacts);

/**
 * Reads the privacy center's status page of request `id` in workspace `ws` for the holder of
 * status link `token` (PRODUCT §2.15): the request, the center's title and the controller, and
 * once it is completed the answer's state (an access/export package ready or gone; a deletion's
 * report and what it kept). The person reads as `statusReader(ws)`: their own request only.
 */
export async function readStatusPage(s: StatusPageServices, ws: string, id: string, token: string): Promise<StatusPageRead> {
  const found = await openStatus(s, ws, id, token);
  if (!found) return { kind: 'not_found' };
  const { request, opened } = found;
  const controller = await s.controllers.get(ws);
  const settings = await s.privacyCenter.get(ws);
  const title = settings?.title ?? `${controller?.name ?? 'Privacy'} privacy center`;
  const completed = request.status === 'completed';
  let answerReady = false;
  if (completed && (request.request_type === 'access' || request.request_type === 'export')) {
    const result = await s.requestResults.read(statusReader(ws), id, 'package');
    if (result.kind === 'expired' || result.kind === 'erased') return { kind: 'gone', title };
    answerReady = result.kind === 'found';
  }
  let deletionReport: unknown = null;
  if (completed && request.request_type === 'deletion') {
    const report = await s.requestResults.read(statusReader(ws), id, 'report');
    if (report.kind === 'found') deletionReport = JSON.parse(report.json) as unknown;
  }
  return {
    kind: 'found',
    title,
    request,
    extensionReason: opened.extensionReason,
    controller,
    answerReady,
    deletionReport,
    kept: await s.requestResults.deletionKept(id),
  };
}
