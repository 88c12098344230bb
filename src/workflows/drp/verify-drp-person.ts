import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import type { Executor } from '../../db/executor.js';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { recordDrpAtCommit } from '../../modules/drp/drp-record-filing.js';
import { drpRequestState } from '../../modules/drp/drp-record.fns.js';
import { findDrpRequest } from '../../modules/drp/drp-request.repository.js';
import {
  type DrpUserVerificationRow,
  lockUserVerification,
  updateUserVerification,
} from '../../modules/drp/drp-verification.repository.js';
import { drpStatusObject } from '../../modules/drp/status-object.fns.js';
import { storedStatusObject } from '../../modules/drp/results-link.fns.js';
import { allowedRedirect, isUserVerificationToken, MAX_CODES } from '../../modules/drp/user-verification.fns.js';
import { enqueueDirectMail } from '../../modules/privacy-center/mail-outbox.repository.js';
import {
  CODE_ATTEMPTS,
  CODE_TTL_MS,
  newCode,
  secretHash,
  tryStoredCode,
} from '../../modules/privacy-center/privacy-center.fns.js';
import { agentPrincipalOf } from './drp-principal.js';
import { InvalidTransitionError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { actOnRequest } from '../requests/act-on-request.js';
import { REVOKED_REASON } from './revoke-drp-request.js';
import { type DrpFilingDeps, type Filed, fileDrpPlan, type PendingDrpFiling } from './file-drp-plan.js';

/** What the person's confirmation of an agent's DRP request needs (wired once in src/services.ts). */
export interface DrpPersonDeps extends DrpFilingDeps {
  readonly db: Executor;
  readonly clock: Clock;
  /** The service's pseudonym key: the link's token and the code's keyed hash. */
  readonly hashKey: string;
  /** Seals a code for the outbox; opens the sealed filing (lib/secret-box.ts). */
  readonly seal: (plaintext: string) => string;
  readonly open: (sealed: string) => string;
}

/** What the page shows of a waiting DRP request: never the address in full. */
export interface DrpWaitView {
  readonly agentName: string;
  /** `access`, `deletion` or `sale:opt-in`. */
  readonly exercise: string;
  /** The address the code goes to, masked (`j•••@example.com`). */
  readonly maskedEmail: string;
  /** A code was mailed and can still be entered. */
  readonly codeSent: boolean;
}

/** Why a page answers "no such request": unknown, another workspace, a wrong token, filed, revoked or expired. */
export type NotFound = { kind: 'not_found' };

/** A wait the link's token opens, with what it will file. */
async function openedWait(
  deps: DrpPersonDeps,
  db: Executor,
  workspaceId: string,
  requestId: string,
  token: string,
): Promise<{ row: DrpUserVerificationRow; pending: PendingDrpFiling } | null> {
  if (!isUserVerificationToken(deps.hashKey, requestId, token)) return null;
  const row = await lockUserVerification(db, workspaceId, requestId);
  if (!row || waitEnded(row, deps.clock())) return null;
  return { row, pending: JSON.parse(deps.open(row.filing_sealed)) as PendingDrpFiling };
}

/**
 * Whether a wait's 14 days are over (PRODUCT §2.19 "Identity"), whether or not the expiry sweep
 * (expire-drp-waits.ts) has ended it yet: no code is sent or taken after them. A wait verified
 * before its end stays open to the person's next entry, which files it.
 */
function waitEnded(row: DrpUserVerificationRow, now: Date): boolean {
  return row.verified_at === null && Date.parse(row.expires_at) <= now.getTime();
}

/** The subject's address a pending filing names. */
function subjectOf(pending: PendingDrpFiling): string {
  return pending.filing.outcome === 'privacy_request' ? pending.filing.request.subject_id : pending.filing.optOut.subject_id;
}

/** `jane@example.com` → `j•••@example.com`: enough for the person to recognise, not to read off a screen. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email[0]}•••${email.slice(at)}`;
}

/**
 * The page's view of DRP request `requestId` of `workspaceId` (PRODUCT §2.19 "Identity"), when
 * `token` is its link's; reads only (a GET never sends a code: mail scanners follow links).
 */
export async function viewDrpWait(
  deps: DrpPersonDeps,
  workspaceId: string,
  requestId: string,
  token: string,
): Promise<DrpWaitView | NotFound> {
  const opened = await openedWait(deps, deps.db, workspaceId, requestId, token);
  if (!opened) return { kind: 'not_found' };
  const { row, pending } = opened;
  const exercise = pending.filing.outcome === 'privacy_request' ? pending.filing.request.request_type : 'sale:opt-in';
  const codeSent =
    row.code_expires_at !== null && row.attempts_left > 0 && Date.parse(row.code_expires_at) > deps.clock().getTime();
  return { agentName: pending.agent.name, exercise, maskedEmail: maskEmail(subjectOf(pending)), codeSent };
}

/**
 * Mails a new 6-digit code to the address the agent gave (PRODUCT §2.19, §2.15's rules: valid
 * 10 minutes, 3 tries; a new code voids the last), at most {@link MAX_CODES} per request. The
 * code is stored as a keyed hash and sealed in the outbox.
 */
export async function sendDrpCode(
  deps: DrpPersonDeps,
  workspaceId: string,
  requestId: string,
  token: string,
): Promise<{ kind: 'sent' } | { kind: 'too_many_codes' } | NotFound> {
  return runUnitOfWork(deps.db, async (unit) => {
    const opened = await openedWait(deps, unit.tx, workspaceId, requestId, token);
    if (!opened) return { kind: 'not_found' } as const;
    const { row, pending } = opened;
    if (row.verified_at !== null) return { kind: 'sent' } as const;
    if (row.codes_sent >= MAX_CODES) return { kind: 'too_many_codes' } as const;
    const now = deps.clock();
    const code = newCode();
    const expiresAt = toTimestamp(new Date(now.getTime() + CODE_TTL_MS));
    await updateUserVerification(unit.tx, requestId, {
      code_hash: secretHash(deps.hashKey, `drp:${requestId}`, code),
      code_expires_at: expiresAt,
      attempts_left: CODE_ATTEMPTS,
      codes_sent: row.codes_sent + 1,
    });
    enqueueDirectMail(unit, {
      workspaceId,
      kind: 'code',
      recipient: subjectOf(pending),
      payload: {
        request_type: pending.filing.outcome === 'privacy_request' ? pending.filing.request.request_type : 'opt_in',
        code_sealed: deps.seal(code),
        code_expires_at: expiresAt,
      },
      at: toTimestamp(now),
    });
    return { kind: 'sent' } as const;
  });
}

/** What entering a code came to: filed, or §2.15's answers (wrong 403, void 429, expired 410). */
export type DrpCodeOutcome =
  | { kind: 'filed' }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'void' }
  | { kind: 'expired' }
  | { kind: 'no_code' }
  | NotFound;

/**
 * Tries `code` (under the wait's row lock); once it is right, files what the agent asked, as the
 * agent, with `received_at` the exercise's (PRODUCT §2.19), and in the filing's commit the DRP
 * record becomes `filed` and the wait with its sealed address is deleted. The right code marks
 * the wait verified first, so a crash before the filing is finished by entering the code again
 * (the filing's Idempotency-Key is the request id: it files once).
 */
export async function enterDrpCode(
  deps: DrpPersonDeps,
  workspaceId: string,
  requestId: string,
  token: string,
  code: string,
): Promise<DrpCodeOutcome> {
  const decided = await runUnitOfWork(deps.db, async (unit) => {
    const opened = await openedWait(deps, unit.tx, workspaceId, requestId, token);
    if (!opened) return { kind: 'not_found' } as const;
    const { row, pending } = opened;
    if (row.code_hash === null || row.code_expires_at === null) return { kind: 'no_code' } as const;
    const stored = { ...row, code_hash: row.code_hash, code_expires_at: row.code_expires_at };
    const decision = tryStoredCode(deps.hashKey, `drp:${requestId}`, stored, code.trim(), deps.clock().getTime());
    if (decision.kind === 'wrong') await updateUserVerification(unit.tx, requestId, { attempts_left: decision.attemptsLeft });
    if (decision.kind !== 'verified') return decision;
    if (row.verified_at === null) await updateUserVerification(unit.tx, requestId, { verified_at: toTimestamp(deps.clock()) });
    return { kind: 'verified', pending } as const;
  });
  if (decided.kind !== 'verified') return decided;
  return fileVerified(deps, workspaceId, requestId, decided.pending);
}

/** Files a verified wait's request, the record's update and the wait's deletion in the filing's commit. */
async function fileVerified(
  deps: DrpPersonDeps,
  workspaceId: string,
  requestId: string,
  pending: PendingDrpFiling,
): Promise<DrpCodeOutcome> {
  const record = await findDrpRequest(deps.db, requestId);
  if (!record) return { kind: 'not_found' };
  const now = deps.clock();
  const withRecord = (stored: UnitOfWork, filed: () => Filed) =>
    recordDrpAtCommit(stored, {
      kind: 'verified',
      requestId,
      complete: () => {
        const made = filed();
        const answer = drpStatusObject(drpRequestState({ ...record, status: 'filed' }, made), now);
        return {
          privacy_request_id: made.request?.id ?? null,
          opt_out_id: made.optOut?.id ?? null,
          last_status: JSON.stringify(storedStatusObject(answer)),
        };
      },
    });
  try {
    await fileDrpPlan(
      deps,
      agentPrincipalOf(workspaceId, pending.agent),
      workspaceId,
      pending.filing,
      `drp-verified-${requestId}`,
      withRecord,
    );
  } catch (error) {
    // Entered twice at once: the other entry files it.
    if (!(error instanceof IdempotencyConflict)) throw error;
  }
  return (await cancelIfRevoked(deps, workspaceId, requestId, pending)) ? { kind: 'not_found' } : { kind: 'filed' };
}

/**
 * The agent's revoke that ended the wait while this code was being checked (revoke-drp-request.ts
 * `revokeWaiting`) marked the record revoked; the filing went on. Cancels the privacy request it
 * filed, as a revoke of a filed request would (the agent as actor, "Revoked by the authorized
 * agent"), so nothing the agent withdrew stays open. An opt-out or opt-in filed so stays (opt-outs
 * have no cancel yet: docs/drp.md "Not yet").
 * @returns true when the record was revoked (the person is told there is nothing to confirm).
 */
async function cancelIfRevoked(
  deps: DrpPersonDeps,
  workspaceId: string,
  requestId: string,
  pending: PendingDrpFiling,
): Promise<boolean> {
  const now = await findDrpRequest(deps.db, requestId);
  if (!now || now.revoked !== 1) return false;
  if (now.privacy_request_id === null) return true;
  try {
    await actOnRequest(deps, agentPrincipalOf(workspaceId, pending.agent), now.privacy_request_id, 'cancel', {
      reason: REVOKED_REASON,
    });
  } catch (error) {
    // Canceled already (a revoke that came after the filing did it).
    if (!(error instanceof InvalidTransitionError)) throw error;
  }
  return true;
}

/** The person's confirmation of an agent's DRP request, bound once (src/services.ts). */
export interface DrpPerson {
  /** {@link viewDrpWait}. */
  view(workspaceId: string, requestId: string, token: string): Promise<DrpWaitView | NotFound>;
  /** {@link sendDrpCode}. */
  sendCode(workspaceId: string, requestId: string, token: string): ReturnType<typeof sendDrpCode>;
  /** {@link enterDrpCode}. */
  enterCode(workspaceId: string, requestId: string, token: string, code: string): Promise<DrpCodeOutcome>;
  /** Where the page may send the person once filed ({@link allowedRedirect}), or null. */
  redirectFor(redirectTo: string | undefined): string | null;
}

/** Binds the person's confirmation to `deps`; `allowPrivate` is `OUTBOUND_ALLOW_PRIVATE_NETWORKS`. */
export function bindDrpPerson(deps: DrpPersonDeps & { allowPrivate: boolean }): DrpPerson {
  return {
    view: (w, r, t) => viewDrpWait(deps, w, r, t),
    sendCode: (w, r, t) => sendDrpCode(deps, w, r, t),
    enterCode: (w, r, t, c) => enterDrpCode(deps, w, r, t, c),
    redirectFor: (to) => allowedRedirect(to, deps.allowPrivate),
  };
}
