import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/executor.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Transact } from '../../db/write-batcher.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type CallbackAddressRules, validateExerciseClaims } from '../../modules/drp/claims.fns.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import { drpRequestState } from '../../modules/drp/drp-record.fns.js';
import { recordDrpAtCommit } from '../../modules/drp/drp-record-filing.js';
import { type DrpRequestRow, findEarlierExercise } from '../../modules/drp/drp-request.repository.js';
import type { DrpStatusObject, DrpSupportableAction } from '../../modules/drp/drp.types.js';
import { type ExercisePlan, planExercise, recordClaims } from '../../modules/drp/exercise-plan.fns.js';
import { checkDecodedMessage } from '../../modules/drp/message-checks.fns.js';
import { type DecodedSignedBody, decodeSignedBody, signedMessageDigest } from '../../modules/drp/signed-body.fns.js';
import { drpStatusObject } from '../../modules/drp/status-object.fns.js';
import { optOutDueAt } from '../../modules/opt-outs/deadline.fns.js';
import type { PolicyService } from '../../modules/policies/policy.service.js';
import { computeDueAt } from '../../modules/privacy-requests/deadline.fns.js';
import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import { readPreferenceRows } from '../../modules/opt-outs/opt-out.repository.js';
import { type DrpFilingDeps, type Filed, fileDrpPlan } from './file-drp-plan.js';
import { alreadyReceived, type SingleUse, storeUnfiledRecord } from './store-unfiled-record.js';
import { type DrpCaller, drpCaller } from './drp-caller.js';
import { agentPrincipal } from './drp-principal.js';

/** What an exercise needs (wired once in src/services.ts). */
export interface ExerciseDeps extends DrpFilingDeps {
  readonly db: Executor;
  /**
   * The write batcher's units (db/write-batcher.ts): the DRP record's two writes share a commit
   * with the other writes in flight, each in its own savepoint, as a filing does; a transaction of
   * their own per exercise made the exercise 4–5× slower than a filing (bench row `drp-exercise`).
   */
  readonly transact: Transact;
  readonly clock: Clock;
  /** `status_callback`'s address rules (`OUTBOUND_ALLOW_PRIVATE_NETWORKS`, the SSRF judgement). */
  readonly callbackRules: CallbackAddressRules;
  /** The workspace's regulations: the due date a request waiting for the person's code will have. */
  readonly policies: Pick<PolicyService, 'effective'>;
  /** Seals what a waiting request will file (it names the person's address) under the service's secrets key. */
  readonly seal: (plaintext: string) => string;
  /** A waiting DRP request's `user_verification_url` (modules/drp/user-verification.fns.ts). */
  readonly verificationUrl: (workspaceId: string, requestId: string) => string;
  /**
   * Announces the filing this exercise will submit to the filings' write batcher once its
   * signature is checked (db/write-batcher.ts `expect`), so that a batch about to start waits
   * for it; the function returned says it is submitted or will not be.
   */
  readonly filingToCome: () => () => void;
}

/** An exercise answered: the status object, and for `drp_requests_total` its action and outcome. */
export interface ExerciseAnswer {
  readonly answer: DrpStatusObject;
  readonly exercise: string;
  /** `filed` (a privacy request or an opt-out), `denied` (nothing filed), `fulfilled` (nothing to file). */
  readonly outcome: 'filed' | 'denied' | 'fulfilled';
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
  const submitted = deps.filingToCome();
  try {
    return await exercise(deps, authorization, body, submitted);
  } finally {
    submitted();
  }
}

/** {@link exerciseDrpRequest}, with `submitted` called right before its one write is submitted. */
async function exercise(
  deps: ExerciseDeps,
  authorization: string | undefined,
  body: Uint8Array,
  submitted: () => void,
): Promise<DrpResult<ExerciseAnswer>> {
  const now = deps.clock();
  const decoded = decodeSignedBody(body);
  const caller = await drpCaller(deps.db, authorization, now, decoded.ok ? singleUseGuess(decoded.value) : undefined);
  if (!caller.ok) return caller;
  if (!decoded.ok) return decoded;
  const checked = await checkDecodedMessage(decoded.value, { signers: [caller.value.signer], now, envelope: 'required' });
  if (!checked.ok) return checked;
  const claims = validateExerciseClaims(checked.value.message, deps.callbackRules);
  if (!claims.ok) return claims;
  const agent = caller.value.agent;
  // A refused body stores nothing, so an exercise's body kept before passed these claims' checks:
  // checking them before the single-use rule answers an exercise as DRP's order would, with one
  // read for both 409s (a key setup's body sent here is a 400 rather than a 409).
  const prefetched = caller.value.prefetched;
  const earlier =
    prefetched !== undefined && prefetched.agentRequestId === claims.value.agentRequestId
      ? prefetched.earlier
      : await findEarlierExercise(deps.db, {
          digest: checked.value.digest,
          agentRef: agent.id,
          agentRequestId: claims.value.agentRequestId,
        });
  if (earlier !== undefined) return fail(earlier);
  const requestId = randomUUID();
  const receivedAt = toTimestamp(now);
  const plan = planExercise(claims.value, {
    requestId,
    receivedAt,
    agent: { agentId: agent.agent_id, name: agent.name, confirmWithConsumer: agent.confirm_with_consumer === 1 },
    supportedActions: JSON.parse(caller.value.supportedActions) as DrpSupportableAction[],
  });
  const decided = await decide(deps, caller.value, plan);
  const dueAt = decided.status === 'awaiting_person' ? await dueAtFiling(deps, agent.workspace_id, plan, now) : receivedAt;
  const record: DrpRequestRow = {
    request_id: requestId,
    workspace_id: agent.workspace_id,
    agent_ref: agent.id,
    agent_id: agent.agent_id,
    agent_request_id: claims.value.agentRequestId,
    exercise: claims.value.exercise,
    regime: claims.value.regime,
    ...decided,
    due_at: dueAt,
    received_at: receivedAt,
    privacy_request_id: null,
    opt_out_id: null,
    status_callback: claims.value.statusCallback,
    kept: JSON.stringify(recordClaims(claims.value)),
    revoked: 0,
    last_status: null,
  };
  const single: SingleUse = {
    digest: checked.value.digest,
    expiresAt: toTimestamp(new Date(checked.value.expiresAt as number)),
    now: receivedAt,
  };
  // On SQLite the filing's reads before its write wait for no I/O: the write is submitted before
  // the batch this may wake starts. On PostgreSQL it may join the next batch instead.
  submitted();
  const answered =
    record.status === 'filed'
      ? await fileWithRecord(deps, caller.value, plan, record, single)
      : await storeUnfiledRecord(deps, record, single, now, plan);
  if (!answered.ok) return answered;
  return ok({ answer: answered.value, exercise: record.exercise, outcome: record.status as ExerciseAnswer['outcome'] });
}

/**
 * The digest and `agent-request-id` of a body not yet checked, for the one read that finds the
 * caller and the single-use rule's answer together ({@link drpCaller}); undefined when the
 * message is not JSON (the checks refuse it next). Used only once the signature verified, over
 * the same bytes.
 */
function singleUseGuess(decoded: DecodedSignedBody): { digest: string; agentRequestId: string | null } | undefined {
  let id: unknown = null;
  try {
    const message: unknown = JSON.parse(decoded.message.toString('utf8'));
    if (message !== null && typeof message === 'object' && Object.hasOwn(message, 'agent-request-id'))
      id = (message as Record<string, unknown>)['agent-request-id'];
  } catch {
    return undefined;
  }
  return { digest: signedMessageDigest(decoded), agentRequestId: typeof id === 'string' ? id : null };
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
  if (plan.filing === 'after_user_verification') return { status: 'awaiting_person', reason: null, processing_details: null };
  return { status: 'filed', reason: null, processing_details: null };
}

/**
 * The due date a privacy request waiting for the person's code will have once filed (its
 * `received_at` is the exercise's): the workspace's regulations, with `ccpa` for `regime: ccpa`,
 * as the filing computes it. An opt-in's: 15 business days, as an opt-out's (11 CCR §7026(f)),
 * counted without the policy's holidays here (the filing counts them).
 */
async function dueAtFiling(deps: ExerciseDeps, workspaceId: string, plan: ExercisePlan, now: Date): Promise<string> {
  if (plan.outcome === 'privacy_request') {
    const { policy } = await deps.policies.effective(workspaceId, '');
    const add = plan.request.add_regulation;
    const applying = add === null || policy.regulations.includes(add) ? policy.regulations : [...policy.regulations, add];
    return toTimestamp(computeDueAt(applying, now));
  }
  return toTimestamp(optOutDueAt('sale_sharing', now, []));
}

/**
 * The filing's Idempotency-Key (under the agent's principal): one per `agent-request-id` of the
 * registration, else one per signed body, so two exercises in flight that the reads before could
 * not tell apart (the same body, or the same `agent-request-id`) claim the same key and only one
 * files.
 */
function filingKey(record: DrpRequestRow, digest: string): string {
  return record.agent_request_id === null ? `drp-${digest}` : `drp-${record.agent_ref}-${record.agent_request_id}`;
}

/**
 * Files what the plan says, with the DRP record, its answered status object and the body's digest
 * deferred behind the filed row (modules/drp/drp-record-filing.ts): ONE commit, the filing's, so
 * an exercise costs what a filing costs plus its reads, and a crash leaves both or neither.
 * @returns the status object answered, or the 409 of a key another exercise holds.
 */
async function fileWithRecord(
  deps: ExerciseDeps,
  caller: DrpCaller,
  plan: ExercisePlan,
  record: DrpRequestRow,
  single: SingleUse,
): Promise<DrpResult<DrpStatusObject>> {
  const principal = agentPrincipal(caller);
  const key = filingKey(record, single.digest);
  let answer: DrpStatusObject | undefined;
  const withRecord = (stored: UnitOfWork, filed: () => Filed) =>
    recordDrpAtCommit(stored, {
      kind: 'new',
      record,
      ...single,
      complete: () => {
        const now = filed();
        answer = drpStatusObject(drpRequestState(record, now), new Date(single.now));
        return {
          privacy_request_id: now.request?.id ?? null,
          opt_out_id: now.optOut?.id ?? null,
          last_status: JSON.stringify(answer),
        };
      },
    });
  try {
    if (plan.outcome === 'denied') throw new Error('DRP filing: a denial files nothing');
    // The single-use read found no earlier body or agent-request-id, so no filing holds the key.
    await fileDrpPlan(deps, principal, caller.agent.workspace_id, plan, key, withRecord, true);
  } catch (error) {
    if (!(error instanceof IdempotencyConflict)) throw error;
    return alreadyReceived(deps.db, record, single.digest);
  }
  if (answer === undefined) throw new Error('DRP filing: the record was not written with what it filed');
  return ok(answer);
}
