import type { Executor } from '../../db/executor.js';
import type { Transact } from '../../db/write-batcher.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { RequestType } from '../request-model/request-model.js';
import { enqueueDirectMail } from './mail-outbox.repository.js';
import { CODE_ATTEMPTS, CODE_TTL_MS, newCode, normalizeEmail, secretHash, tryStoredCode } from './privacy-center.fns.js';
import { OPT_IN_SUBMISSION, type Submission, type SubmissionPurpose, type VerifyOutcome } from './privacy-center.types.js';
import type { PrivacyCenterSettingsService } from './settings.service.js';
import { insertSubmission, lockSubmission, type SubmissionRow, updateSubmission } from './submission.repository.js';

/** What a submission came to: `submitted` (202), `center_off` (404), `type_not_enabled` (422). */
export type SubmitOutcome =
  { kind: 'submitted'; id: string } | { kind: 'center_off' } | { kind: 'type_not_enabled'; offered: string[] };

function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    requestType: row.request_type as RequestType | typeof OPT_IN_SUBMISSION,
    optInKinds: row.opt_in_kinds === null ? null : (JSON.parse(row.opt_in_kinds) as string[]),
    email: row.email,
    submittedAt: row.submitted_at,
    verifiedAt: row.verified_at,
    requestId: row.request_id,
  };
}

/**
 * The privacy center's intake before a request exists (PRODUCT §2.15): a person's submission and
 * the proof that the address is theirs. A submission is not a privacy request (no event, no task,
 * not in the queue); its code is stored only as a keyed hash, valid {@link CODE_TTL_MS}, for
 * {@link CODE_ATTEMPTS} tries. Known and unknown addresses are treated alike: nothing here reads
 * who the workspace knows.
 */
export function createSubmissionService(deps: {
  db: Executor;
  transact: Transact;
  clock: Clock;
  /** Key of the code hashes (the service's pseudonym key). */
  hashKey: string;
  /** Seals the code for the outbox under the service's secrets key (lib/secret-box.ts): never stored in clear. */
  seal: (plaintext: string) => string;
  settings: PrivacyCenterSettingsService;
}) {
  const { db, transact, clock, hashKey, seal, settings } = deps;

  /**
   * Stores a submission and enqueues the mail with its code (sealed: the outbox never holds it in
   * clear; the mail is dropped once the code expired), in one unit of work. @returns its id.
   */
  async function store(
    workspaceId: string,
    input: { request_type: RequestType | typeof OPT_IN_SUBMISSION; email: string; opt_in_kinds: string[] | null },
  ): Promise<string> {
    const now = clock();
    const id = newId('form', now.getTime());
    const code = newCode();
    const email = normalizeEmail(input.email);
    const at = toTimestamp(now);
    const expiresAt = toTimestamp(new Date(now.getTime() + CODE_TTL_MS));
    await transact(async (unit) => {
      await insertSubmission(unit.tx, {
        id,
        workspace_id: workspaceId,
        request_type: input.request_type,
        email,
        code_hash: secretHash(hashKey, id, code),
        code_expires_at: expiresAt,
        attempts_left: CODE_ATTEMPTS,
        submitted_at: at,
        verified_at: null,
        request_id: null,
        opt_in_kinds: input.opt_in_kinds === null ? null : JSON.stringify(input.opt_in_kinds),
      });
      enqueueDirectMail(unit, {
        workspaceId,
        kind: 'code',
        recipient: email,
        payload: { request_type: input.request_type, code_sealed: seal(code), code_expires_at: expiresAt, submission_id: id },
        at,
      });
    });
    return id;
  }

  return {
    /**
     * A request's submission: stored with its code mail ({@link store}).
     * @returns `submitted` with the submission id (`form_…`; older ones `pcs_…`: an id is opaque), or why not (nothing stored).
     */
    async submit(workspaceId: string, input: { request_type: RequestType; email: string }): Promise<SubmitOutcome> {
      const center = await settings.get(workspaceId);
      if (!center?.enabled) return { kind: 'center_off' };
      if (!center.request_types.includes(input.request_type)) return { kind: 'type_not_enabled', offered: center.request_types };
      return { kind: 'submitted', id: await store(workspaceId, { ...input, opt_in_kinds: null }) };
    },

    /**
     * An opt-in's submission (PRODUCT §2.18; 11 CCR §7028: the person confirms with the mailed
     * code): `request_type` {@link OPT_IN_SUBMISSION}, `kinds` kept as given (validated by the
     * caller), stored with its code mail. Whatever the center offers as requests.
     * @returns `submitted` with the submission id, or `center_off` (nothing stored).
     */
    async submitOptIn(workspaceId: string, input: { email: string; kinds: readonly string[] }): Promise<SubmitOutcome> {
      const center = await settings.get(workspaceId);
      if (!center?.enabled) return { kind: 'center_off' };
      const id = await store(workspaceId, {
        request_type: OPT_IN_SUBMISSION,
        email: input.email,
        opt_in_kinds: [...input.kinds],
      });
      return { kind: 'submitted', id };
    },

    /**
     * Tries `code` on submission `id` of `workspaceId` (under a row lock): a wrong code costs an
     * attempt; the right one marks it verified. A verified submission answers `verified` again
     * (whatever code is given), so a repeated verification files nothing new. A submission for
     * another `purpose` (an opt-in's id at a request's verification, or the reverse) is
     * `not_found`, its code untried.
     */
    async verify(workspaceId: string, id: string, code: string, purpose: SubmissionPurpose = 'request'): Promise<VerifyOutcome> {
      return runUnitOfWork(db, async (unit): Promise<VerifyOutcome> => {
        const row = await lockSubmission(unit.tx, workspaceId, id);
        if (!row || (row.request_type === OPT_IN_SUBMISSION) !== (purpose === 'opt_in')) return { kind: 'not_found' };
        const now = clock();
        const decision = tryStoredCode(hashKey, id, row, code, now.getTime());
        if (decision.kind === 'wrong') {
          await updateSubmission(unit.tx, id, { attempts_left: decision.attemptsLeft });
          return decision;
        }
        if (decision.kind !== 'verified') return decision;
        if (row.verified_at === null) {
          const verifiedAt = toTimestamp(now);
          await updateSubmission(unit.tx, id, { verified_at: verifiedAt });
          return { kind: 'verified', submission: toSubmission({ ...row, verified_at: verifiedAt }) };
        }
        return { kind: 'verified', submission: toSubmission(row) };
      });
    },

    /** Notes the request a verified submission became. */
    async linkRequest(id: string, requestId: string): Promise<void> {
      await updateSubmission(db, id, { request_id: requestId });
    },
  };
}

export type SubmissionService = ReturnType<typeof createSubmissionService>;
