import type { Principal } from '../../modules/principals/principal.js';
import type { CenterStatusService } from '../../modules/privacy-center/status.service.js';
import type { PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';

/** What opening a status link needs. */
export interface StatusAccessServices {
  centerStatus: CenterStatusService;
  privacyRequests: PrivacyRequestService;
}

/**
 * The request a status link opens (PRODUCT §2.15): its capability `token` must have been issued for
 * request `id` of workspace `ws`. @returns the request and what the token's check gave (the
 * extension reason the person was told), or null for a wrong token, id or workspace (a 404).
 */
export async function openStatus(s: StatusAccessServices, ws: string, id: string, token: string) {
  const opened = await s.centerStatus.open(ws, id, token);
  if (!opened) return null;
  const request = await s.privacyRequests.get(id);
  if (!request || request.workspace_id !== ws) return null;
  return { opened, request };
}

/** The person holding a status link, as a reader of their own request's result in workspace `ws` (no scope, no other workspace). */
export function statusReader(ws: string): Principal {
  return { id: 'subject', name: 'data subject', scopes: new Set<string>(), workspaces: new Set([ws]) };
}
