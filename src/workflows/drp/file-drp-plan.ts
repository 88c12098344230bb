import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { DrpOptOutFiling, DrpPrivacyRequestFiling } from '../../modules/drp/exercise-plan.fns.js';
import type { OptOutFiling } from '../../modules/opt-outs/opt-out.types.js';
import type { Principal } from '../../modules/principals/principal.js';
import type { FileRequest } from '../filing/file-privacy-request.js';
import type { OptOutUseCases } from '../opt-outs/opt-out-use-cases.js';

/** What a DRP filing needs (wired once in src/services.ts). */
export interface DrpFilingDeps {
  /** The one filing path of privacy requests. */
  readonly fileRequest: FileRequest;
  /** The opt-out use cases' filing. */
  readonly fileOptOut: OptOutUseCases['file'];
}

/** What a DRP record's status object reads of what it filed, right after the filing. */
export type Filed = {
  request?: {
    id: string;
    request_type: string;
    status: string;
    status_reason: string | null;
    due_at: string;
    extended_due_at: string | null;
  };
  optOut?: { id: string; status: string; due_at: string };
};

/** A DRP exercise's filing: a privacy request, or an opt-out or opt-in of kind `sale_sharing`. */
export type DrpFiling =
  | { readonly outcome: 'privacy_request'; readonly request: DrpPrivacyRequestFiling }
  | { readonly outcome: 'opt_out' | 'opt_in'; readonly optOut: DrpOptOutFiling };

/** What a DRP request waiting for the person's code will file, kept sealed until then (drp_user_verifications). */
export interface PendingDrpFiling {
  readonly filing: DrpFiling;
  /** The agent it is filed as (its principal: `agent:<agent_id>`). */
  readonly agent: { readonly agent_id: string; readonly name: string };
}

/**
 * Files `filing` for the agent `principal` in `workspaceId` under the Idempotency-Key `key`, with
 * `withRecord` called on the unit whose deferred writes exist only if the filed row is stored
 * (the filing's `alongside` hook), so the DRP record's writes share the filing's commit
 * (modules/drp/drp-record-filing.ts). PRODUCT §2.19 "Exercise": `subject_provider: "email"`,
 * scope `["user"]`, `intake_ref: "drp:<id>"`, `client_request_id: "drp-<id>"`, the `agent`
 * field, `regime: ccpa` adding `ccpa`; an opt-out with `source: "agent"`.
 * @param keyUnused - the caller read that nothing was filed under `key` (the exercise's single-use read).
 * @throws IdempotencyConflict when another filing holds `key` (the caller answers 409);
 *   Error when the `client_request_id` is taken (it is new per DRP request: a bug).
 */
export async function fileDrpPlan(
  deps: DrpFilingDeps,
  principal: Principal,
  workspaceId: string,
  filing: DrpFiling,
  key: string,
  withRecord: (stored: UnitOfWork, filed: () => Filed) => void,
  keyUnused = false,
): Promise<void> {
  if (filing.outcome === 'privacy_request') {
    const { agent, add_regulation } = filing.request;
    const outcome = await deps.fileRequest(
      principal,
      key,
      {
        request_type: filing.request.request_type,
        scope: ['user'],
        subject_provider: 'email',
        subject_id: filing.request.subject_id,
        workspace_id: workspaceId,
        client_request_id: filing.request.client_request_id,
        intake_ref: filing.request.intake_ref,
        received_at: filing.request.received_at,
      },
      {
        agent,
        ...(add_regulation === null ? {} : { addRegulation: add_regulation }),
        alongside: (stored, request) => withRecord(stored, () => ({ request })),
        keyUnused,
      },
    );
    if (outcome.kind !== 'filed' || outcome.replayed) throw new Error('DRP filing: client_request_id taken');
    return;
  }
  const outcome = await deps.fileOptOut(
    principal,
    key,
    {
      workspace_id: workspaceId,
      subject_provider: 'email',
      subject_id: filing.optOut.subject_id,
      kind: 'sale_sharing',
      choice: filing.optOut.choice,
      source: 'agent',
      client_request_id: filing.optOut.client_request_id,
      received_at: filing.optOut.received_at,
      agent: filing.optOut.agent,
    },
    { alongside: (stored, read) => withRecord(stored, () => optOutFiled(read())), keyUnused },
  );
  if (outcome.kind !== 'filed' || outcome.replayed) throw new Error('DRP filing: client_request_id taken');
}

/** What the status object reads of a filed opt-out. */
function optOutFiled(filing: OptOutFiling): Filed {
  return filing.kind === 'filed' ? { optOut: filing.accepted } : {};
}
