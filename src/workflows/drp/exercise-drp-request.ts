import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { Transact } from '../../db/write-batcher.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type CallbackAddressRules, validateExerciseClaims } from '../../modules/drp/claims.fns.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import { digestRequest, keepDigest } from '../../modules/drp/drp-pairing.repository.js';
import { drpRequestState } from '../../modules/drp/drp-record.fns.js';
import {
  dropDrpRequest,
  type DrpRequestRow,
  findByAgentRequestId,
  insertDrpRequest,
  updateDrpRequest,
} from '../../modules/drp/drp-request.repository.js';
import type { DrpStatusObject, DrpSupportableAction } from '../../modules/drp/drp.types.js';
import { type ExercisePlan, planExercise, recordClaims } from '../../modules/drp/exercise-plan.fns.js';
import { checkSignedMessage } from '../../modules/drp/message-checks.fns.js';
import { drpStatusObject } from '../../modules/drp/status-object.fns.js';
import { readPreferenceRows } from '../../modules/opt-outs/opt-out.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import type { FileRequest } from '../filing/file-privacy-request.js';
import type { OptOutUseCases } from '../opt-outs/opt-out-use-cases.js';
import { type DrpCaller, drpCaller } from './drp-caller.js';

/** What an exercise needs (wired once in src/services.ts). */
export interface ExerciseDeps {
  readonly db: Executor;
  /**
   * The write batcher's units (db/write-batcher.ts): the DRP record's two writes share a commit
   * with the other writes in flight, each in its own savepoint, as a filing does; a transaction of
   * their own per exercise made the exercise 4–5× slower than a filing (bench row `drp-exercise`).
   */
  readonly transact: Transact;
  readonly clock: Clock;
  /** The one filing path of privacy requests. */
  readonly fileRequest: FileRequest;
  /** The opt-out use cases' filing. */
  readonly fileOptOut: OptOutUseCases['file'];
  /** `status_callback`'s address rules (`OUTBOUND_ALLOW_PRIVATE_NETWORKS`, the SSRF judgement). */
  readonly callbackRules: CallbackAddressRules;
}

/**
 * The `processing_details` of an exercise that needs the person's own code, which this service
 * does not take over DRP yet (docs/drp.md, "Not yet"): denied `insuf_verification`, nothing filed.
 */
export const USER_VERIFICATION_NOT_YET =
  'This business cannot yet verify the person by a mailed code over DRP; an access or deletion request is filed at once with email_verified true (unless the business confirms every request of this agent with the person) or with power_of_attorney.';

/** An exercise answered: the status object, and for `drp_requests_total` its action and outcome. */
export interface ExerciseAnswer {
  readonly answer: DrpStatusObject;
  readonly exercise: string;
  /** `filed` (a privacy request or an opt-out), `denied` (nothing filed), `fulfilled` (nothing to file). */
  readonly outcome: 'filed' | 'denied' | 'fulfilled';
}

/** The principal an agent files as (PRODUCT §2.19: audited `{type: "agent", id, name}`). */
export function agentPrincipal(caller: Pick<DrpCaller, 'agent'>): Principal {
  return {
    id: `agent:${caller.agent.agent_id}`,
    name: caller.agent.name,
    scopes: new Set(),
    workspaces: new Set([caller.agent.workspace_id]),
  };
}

/**
 * Data Rights Exercise (DRP §2.01; PRODUCT §2.19 "Exercise", src/modules/drp/README.md "Wiring
 * it"): the caller by its bearer token, the signed body's checks, the single-use rule, the claims,
 * `agent-request-id` unique per agent, then the plan. `deletion`/`access` are filed as privacy
 * requests through the one filing path (`subject_provider: "email"`, `intake_ref: "drp:<id>"`,
 * `client_request_id: "drp-<id>"`, `received_at` = arrival, `regime: ccpa` adds `ccpa`, the
 * `agent` field), `sale:opt-out` as an opt-out of kind `sale_sharing` with `source: "agent"`;
 * denials (`claim_not_covered`, no `email`) file nothing but keep the DRP record. A refusal stores
 * and audits nothing.
 * @returns the status object (200) with the action and outcome, or the refusal.
 */
export async function exerciseDrpRequest(
  deps: ExerciseDeps,
  authorization: string | undefined,
  body: Uint8Array,
): Promise<DrpResult<ExerciseAnswer>> {
  const now = deps.clock();
  const caller = await drpCaller(deps.db, authorization, now);
  if (!caller.ok) return caller;
  const checked = checkSignedMessage(body, { signers: [caller.value.signer], now, envelope: 'required' });
  if (!checked.ok) return checked;
  const seen = await digestRequest(deps.db, checked.value.digest);
  if (seen !== undefined) return fail({ reason: 'replayed', requestId: seen });
  const claims = validateExerciseClaims(checked.value.message, deps.callbackRules);
  if (!claims.ok) return claims;
  const agent = caller.value.agent;
  if (claims.value.agentRequestId !== null) {
    const first = await findByAgentRequestId(deps.db, agent.id, claims.value.agentRequestId);
    if (first !== undefined) return fail({ reason: 'agent_request_id_reused', requestId: first });
  }
  const requestId = randomUUID();
  const receivedAt = toTimestamp(now);
  const plan = planExercise(claims.value, {
    requestId,
    receivedAt,
    agent: { agentId: agent.agent_id, name: agent.name, confirmWithConsumer: agent.confirm_with_consumer === 1 },
    supportedActions: JSON.parse(caller.value.supportedActions) as DrpSupportableAction[],
  });
  const decided = await decide(deps, caller.value, plan);
  const record: DrpRequestRow = {
    request_id: requestId,
    workspace_id: agent.workspace_id,
    agent_ref: agent.id,
    agent_id: agent.agent_id,
    agent_request_id: claims.value.agentRequestId,
    exercise: claims.value.exercise,
    regime: claims.value.regime,
    ...decided,
    due_at: receivedAt,
    received_at: receivedAt,
    privacy_request_id: null,
    opt_out_id: null,
    status_callback: claims.value.statusCallback,
    kept: JSON.stringify(recordClaims(claims.value)),
    revoked: 0,
    last_status: null,
  };
  const stored = await storeRecord(deps, record, checked.value.digest, checked.value.expiresAt as number, receivedAt);
  if (!stored.ok) return stored;
  const filed = await fileWhatItSays(deps, caller.value, plan, record);
  const answer = drpStatusObject(drpRequestState(record, filed), now);
  await deps.transact((unit) =>
    updateDrpRequest(unit.tx, requestId, {
      privacy_request_id: filed.request?.id ?? null,
      opt_out_id: filed.optOut?.id ?? null,
      last_status: JSON.stringify(answer),
    }),
  );
  return ok({ answer, exercise: record.exercise, outcome: record.status as ExerciseAnswer['outcome'] });
}

type Decision = Pick<DrpRequestRow, 'status' | 'reason' | 'processing_details'>;

/** The record's own decision: filed (its status comes from what it filed), denied, or fulfilled without filing. */
async function decide(deps: ExerciseDeps, caller: DrpCaller, plan: ExercisePlan): Promise<Decision> {
  if (plan.outcome === 'denied') return { status: 'denied', reason: plan.reason, processing_details: plan.processingDetails };
  if (plan.outcome === 'opt_in') {
    const preferences = await readPreferenceRows(deps.db, caller.agent.workspace_id, 'email', plan.optOut.subject_id);
    const optedOut = preferences.some((p) => p.kind === 'sale_sharing' && p.choice === 'opt_out');
    if (!optedOut) return { status: 'fulfilled', reason: null, processing_details: null };
  }
  if (plan.filing === 'after_user_verification')
    return { status: 'denied', reason: 'insuf_verification', processing_details: USER_VERIFICATION_NOT_YET };
  return { status: 'filed', reason: null, processing_details: null };
}

/** The record and the body's digest in one transaction; a digest or `agent-request-id` stored meanwhile is a 409. */
async function storeRecord(
  deps: Pick<ExerciseDeps, 'db' | 'transact'>,
  record: DrpRequestRow,
  digest: string,
  expiresAt: number,
  now: string,
): Promise<DrpResult<null>> {
  try {
    return await deps.transact(async (unit) => {
      const kept = await keepDigest(unit.tx, {
        digest,
        requestId: record.request_id,
        expiresAt: toTimestamp(new Date(expiresAt)),
        now,
      });
      if (!kept) return fail({ reason: 'replayed', requestId: (await digestRequest(unit.tx, digest)) ?? null });
      await insertDrpRequest(unit.tx, record);
      return ok(null);
    });
  } catch (error) {
    if (!isUniqueViolation(error) || record.agent_request_id === null) throw error;
    const first = await findByAgentRequestId(deps.db, record.agent_ref, record.agent_request_id);
    return fail({ reason: 'agent_request_id_reused', requestId: first ?? record.request_id });
  }
}

type Filed = {
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

/** Files what the plan says when the record's decision is `filed`; drops the record when filing fails. */
async function fileWhatItSays(deps: ExerciseDeps, caller: DrpCaller, plan: ExercisePlan, record: DrpRequestRow): Promise<Filed> {
  if (record.status !== 'filed') return {};
  const principal = agentPrincipal(caller);
  const key = `drp-${record.request_id}`;
  try {
    if (plan.outcome === 'privacy_request') {
      const { agent, add_regulation } = plan.request;
      const outcome = await deps.fileRequest(
        principal,
        key,
        {
          request_type: plan.request.request_type,
          scope: ['user'],
          subject_provider: 'email',
          subject_id: plan.request.subject_id,
          workspace_id: caller.agent.workspace_id,
          client_request_id: plan.request.client_request_id,
          intake_ref: plan.request.intake_ref,
          received_at: plan.request.received_at,
        },
        { agent, ...(add_regulation === null ? {} : { addRegulation: add_regulation }) },
      );
      if (outcome.kind !== 'filed') throw new Error('DRP filing: client_request_id taken');
      return { request: outcome.request };
    }
    if (plan.outcome === 'opt_out' || plan.outcome === 'opt_in') {
      const outcome = await deps.fileOptOut(principal, key, {
        workspace_id: caller.agent.workspace_id,
        subject_provider: 'email',
        subject_id: plan.optOut.subject_id,
        kind: 'sale_sharing',
        choice: plan.optOut.choice,
        source: 'agent',
        client_request_id: plan.optOut.client_request_id,
        received_at: plan.optOut.received_at,
        agent: plan.optOut.agent,
      });
      if (outcome.kind !== 'filed') throw new Error('DRP filing: client_request_id taken');
      return { optOut: outcome.accepted };
    }
    return {};
  } catch (error) {
    await dropDrpRequest(deps.db, record.request_id);
    throw error;
  }
}
