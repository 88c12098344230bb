import { IdempotencyConflict } from '../../../modules/idempotency/idempotency.service.js';
import type { AgentSubmissionRow } from '../../../modules/privacy-center/agent-submission.repository.js';
import type { AgentSubmissionService } from '../../../modules/privacy-center/agent-submission.service.js';
import { agentPseudonym } from '../../../modules/privacy-center/privacy-center.fns.js';
import type { Principal } from '../../../modules/principals/principal.js';
import type { PrivacyRequestService } from '../../../modules/privacy-requests/privacy-request.service.js';
import type { RequestType } from '../../../modules/request-model/request-model.js';
import type { FileRequest } from '../../filing/file-privacy-request.js';

/** What the center's agent path needs once the agent proved its address (wired once in src/services.ts). */
export interface AgentRequestDeps {
  readonly agentSubmissions: Pick<AgentSubmissionService, 'open' | 'settleConfirmed'>;
  readonly privacyRequests: Pick<PrivacyRequestService, 'get'>;
  readonly fileRequest: FileRequest;
  /** The key of the pseudonyms (the agent's principal id). */
  readonly pseudonymKey: string;
}

/** What the person's "Yes, I asked them" came to: the request filed (its id and status), or no such confirmation. */
export type ConfirmOutcome = { kind: 'filed'; requestId: string; status: string } | { kind: 'not_found' };

/**
 * The agent filing through the privacy center (PRODUCT §2.19): `agent:<keyed pseudonym of its
 * address>`, named "authorized agent", so the audit holds no address.
 */
export function centerAgentPrincipal(pseudonym: string, workspaceId: string): Principal {
  return { id: `agent:${pseudonym}`, name: 'authorized agent', scopes: new Set(), workspaces: new Set([workspaceId]) };
}

/**
 * The person's "Yes, I asked them" on agent submission `id` of `workspaceId` with the link's
 * `token` (PRODUCT §2.19, 11 CCR §7063(a)): files the privacy request through the one filing path
 * as the agent: `subject_provider: "email"`, `subject_id` = the person's address, `received_at` =
 * the agent's submission time, `intake_ref: "privacy-center:agent"`, `agent: {id: <keyed pseudonym
 * of the agent's address>, name, proof_ref}`; the person gets the center's mails with the status
 * link, the agent data-less copies (`notifyAgent`). Then the submission is deleted and the
 * person's confirmation audited (`agent_request.confirmed`, as the person). Idempotent: the
 * submission id is the Idempotency-Key and `privacy-center:agent:<id>` the `client_request_id`.
 */
export async function confirmAgentRequest(
  deps: AgentRequestDeps,
  workspaceId: string,
  id: string,
  token: string,
): Promise<ConfirmOutcome> {
  const row = await deps.agentSubmissions.open(workspaceId, id, token);
  if (!row) return { kind: 'not_found' };
  const pseudonym = agentPseudonym(deps.pseudonymKey, row.agent_email);
  const filing = await fileAsAgent(deps, workspaceId, row, pseudonym);
  // A second "Yes" while the first is still filing: that one files; this one is answered as a used link.
  if (filing === null) return { kind: 'not_found' };
  const requestId = filing.kind === 'filed' ? filing.request.id : filing.existingId;
  if (requestId === null) return { kind: 'not_found' };
  await deps.agentSubmissions.settleConfirmed(row, requestId);
  const current = filing.kind === 'filed' && !filing.replayed ? filing.request : await deps.privacyRequests.get(requestId);
  return { kind: 'filed', requestId, status: current?.status ?? 'queued' };
}

/** Files `row` as the agent (see {@link confirmAgentRequest}); null when the same filing is in flight. */
async function fileAsAgent(deps: AgentRequestDeps, workspaceId: string, row: AgentSubmissionRow, pseudonym: string) {
  try {
    return await fileOnce(deps, workspaceId, row, pseudonym);
  } catch (error) {
    if (error instanceof IdempotencyConflict) return null;
    throw error;
  }
}

function fileOnce(deps: AgentRequestDeps, workspaceId: string, row: AgentSubmissionRow, pseudonym: string) {
  return deps.fileRequest(
    centerAgentPrincipal(pseudonym, workspaceId),
    `agent-request-${row.id}`,
    {
      request_type: row.request_type as RequestType,
      scope: ['user'],
      subject_id: row.subject_email,
      subject_provider: 'email',
      workspace_id: workspaceId,
      client_request_id: `privacy-center:agent:${row.id}`,
      intake_ref: 'privacy-center:agent',
      received_at: row.submitted_at,
      notify_email: row.subject_email,
    },
    {
      statusLink: true,
      agent: { id: pseudonym, name: row.agent_name, drp_request_id: null, proof_ref: row.proof_ref },
      notifyAgent: row.agent_email,
    },
  );
}
