import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { Transact } from '../../db/write-batcher.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import { fingerprint } from '../../modules/idempotency/idempotency.fns.js';
import {
  IdempotencyConflict,
  type IdempotencyService,
  KEY_ATTEMPTS,
  type KeyUse,
  type RecordCodec,
} from '../../modules/idempotency/idempotency.service.js';
import type { PolicyService } from '../../modules/policies/policy.service.js';
import type { Principal } from '../../modules/principals/principal.js';
import { computeDueAt, receivedAtProblem, regulationLabel } from '../../modules/privacy-requests/deadline.fns.js';
import { ReceivedAtOutOfRangeError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import type {
  CreatePrivacyRequestInput,
  Filing,
  FilingOptions,
  FilingOutcome,
} from '../../modules/privacy-requests/privacy-request.types.js';
import { requestFiled } from '../../modules/privacy-requests/lifecycle/request-events.js';
import { type FiledState, stateAtFiling } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { fileAtCommit } from './filing-batch.js';
import { findRepeatedRequest } from './repeat-check.js';

/** What filing needs (wired once in src/services.ts). */
export interface FilingDeps {
  readonly clock: Clock;
  /** Reads for the repeat check (PRODUCT §2.20), only when the policy's `repeat_window_days` is above 0. */
  readonly db: Executor;
  /** A filing's unit only defers its writes (filing-batch.ts, idempotency/key-claims.ts). */
  readonly transact: Transact;
  readonly idempotency: Pick<IdempotencyService, 'peek' | 'claim' | 'record'>;
  readonly policies: Pick<PolicyService, 'effective'>;
  /** How a filing's outcome is kept for replay (src/http/replay/filing-record.ts). */
  readonly filingRecord: RecordCodec<Filing>;
}

/** {@link filePrivacyRequest} with its dependencies bound: what routes, intake and webhooks call. */
export type FileRequest = (
  principal: Principal,
  idempotencyKey: string,
  input: CreatePrivacyRequestInput,
  options?: FilingOptions,
) => Promise<FilingOutcome>;

/**
 * Adds the request, its audit entry and its events to `unit`, all written at its commit unless
 * the client_request_id is taken then ({@link fileAtCommit}).
 * @returns the filing's outcome, readable once the unit's writes were flushed.
 */
function addFiling(
  clock: Clock,
  unit: UnitOfWork,
  principal: Principal,
  input: CreatePrivacyRequestInput,
  state: FiledState,
  regulations: ('gdpr' | 'ccpa')[],
  options: FilingOptions,
): () => Filing {
  const { notify_email: notifyEmail, ...fields } = input;
  const filed = clock();
  const applying =
    options.addRegulation === undefined || regulations.includes(options.addRegulation)
      ? regulations
      : [...regulations, options.addRegulation];
  const now = toTimestamp(filed);
  const received = input.received_at === undefined ? filed : new Date(input.received_at);
  const row = {
    id: newId('pr', filed.getTime()),
    ...fields,
    scope: JSON.stringify(input.scope),
    regulation: regulationLabel(applying),
    received_at: toTimestamp(received),
    status: state.status,
    status_reason: state.status_reason,
    created_at: now,
    due_at: toTimestamp(computeDueAt(applying, received)),
    extended_due_at: null,
    completed_at: null,
    updated_at: now,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    next_attempt_at: null,
    filed_by: principal.id,
    related_request_id: state.related_request_id,
    agent: options.agent === undefined ? null : JSON.stringify(options.agent),
    agent_id: options.agent?.id ?? null,
  };
  const notify =
    notifyEmail === undefined
      ? null
      : {
          email: notifyEmail.trim().toLowerCase(),
          statusLink: options.statusLink === true,
          agentEmail: options.notifyAgent?.trim().toLowerCase() ?? null,
        };
  const request = toResource(row);
  return fileAtCommit(unit, row, request, notify, (gated, json) => {
    recordAudit(gated, {
      actor: principal.id,
      actorName: principal.name,
      requestId: row.id,
      action: 'privacy_request.created',
      targetType: 'privacy_request',
      targetId: row.id,
      workspaceId: input.workspace_id,
      details: {
        request_type: input.request_type,
        status: state.status,
        ...(state.related_request_id === null
          ? {}
          : { status_reason: state.status_reason, related_request_id: state.related_request_id }),
      },
      occurredAt: now,
    });
    requestFiled(gated, request, json, notify !== null);
    options.alongside?.(gated, request);
  });
}

/**
 * One try at filing under an Idempotency-Key: a replay answered from the key's record, or ONE
 * unit of work that claims the key and adds the request (`add`, in the state `decide` gives,
 * read after the replay check so a replay reads nothing more) and the key's record with its
 * outcome, all written at the unit's commit with the rest of its write batch, and only if the
 * key was claimed then (else the key's record is replayed, or its conflict answered).
 */
async function fileOnce(
  deps: FilingDeps,
  use: KeyUse,
  decide: () => FiledState | Promise<FiledState>,
  add: (unit: UnitOfWork, state: FiledState) => () => Filing,
  keyUnused = false,
): Promise<FilingOutcome> {
  const { idempotency, filingRecord } = deps;
  const stored = keyUnused ? null : await idempotency.peek(use);
  if (stored) return { ...filingRecord.decode(stored), replayed: true };
  const state = await decide();
  const { key, outcome } = await deps.transact(async (unit) => {
    const key = idempotency.claim(unit, use);
    const outcome = add(key.unit, state);
    idempotency.record(key, () => filingRecord.encode(outcome()));
    return { key, outcome };
  });
  const claim = key.outcome();
  if (claim.kind === 'conflict') throw new IdempotencyConflict(claim.reason);
  if (claim.kind === 'replay') return { ...filingRecord.decode(claim.response), replayed: true };
  return { ...outcome(), replayed: false };
}

/**
 * Files a privacy request (PRODUCT.md §2.3): idempotent per Idempotency-Key, unique per
 * (workspace, client_request_id) by a database constraint. Status is `action_required` with
 * `status_reason: "repeat_request"` and `related_request_id` when the workspace policy's
 * `repeat_window_days` is above 0 and the request repeats another (§2.20,
 * {@link findRepeatedRequest}; with 0 nothing is read for it), else `pending_approval` when the
 * policy requires approval, else `queued`; `due_at` follows the workspace's regulations
 * (GDPR Art. 12(3), CCPA §1798.130).
 *
 * @returns the filed request, or the typed conflict of a taken `client_request_id`, and whether
 *   it is the replay of an earlier filing with the same key.
 * @throws IdempotencyConflict for a reused or in-flight key; ReceivedAtOutOfRangeError for a
 *   `received_at` after now or more than 365 days before it (by the service's clock).
 * @param options - `statusLink`: the request has a privacy-center status page (its mails link it).
 */
export async function filePrivacyRequest(
  deps: FilingDeps,
  principal: Principal,
  idempotencyKey: string,
  input: CreatePrivacyRequestInput,
  options: FilingOptions = {},
): Promise<FilingOutcome> {
  const { clock } = deps;
  if (input.received_at !== undefined) {
    const problem = receivedAtProblem(new Date(input.received_at), clock());
    if (problem !== null) throw new ReceivedAtOutOfRangeError(input.received_at, problem);
  }
  const { policy } = await deps.policies.effective(input.workspace_id, '');
  const windowDays = policy.repeat_window_days;
  const decide =
    windowDays === 0
      ? () => stateAtFiling(policy.require_approval, null)
      : async () => stateAtFiling(policy.require_approval, await findRepeatedRequest(deps.db, input, windowDays, clock()));
  const use = { principalId: principal.id, key: idempotencyKey, fingerprint: fingerprint(input) };
  for (let attempt = 1; ; attempt++) {
    try {
      return await fileOnce(
        deps,
        use,
        decide,
        (unit, state) => addFiling(clock, unit, principal, input, state, policy.regulations, options),
        // A retry after another process stored the key reads it.
        options.keyUnused === true && attempt === 1,
      );
    } catch (error) {
      // Another process stored the same key after our claim: read it again.
      if (!isUniqueViolation(error) || attempt >= KEY_ATTEMPTS) throw error;
    }
  }
}
