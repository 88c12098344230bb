import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Transact } from '../../db/write-batcher.js';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.repository.js';
import type { RequestType } from '../request-model/request-model.js';
import {
  type AgentSubmissionRow,
  deleteAgentSubmission,
  findAgentSubmission,
  insertAgentSubmission,
  lockAgentSubmission,
  updateAgentSubmission,
} from './agent-submission.repository.js';
import { enqueueDirectMail } from './mail-outbox.repository.js';
import {
  CODE_ATTEMPTS,
  CODE_TTL_MS,
  tryStoredCode,
  newCode,
  newStatusToken,
  normalizeEmail,
  sameHash,
  secretHash,
  subjectPseudonym,
} from './privacy-center.fns.js';
import type { VerifyOutcome } from './privacy-center.types.js';
import type { PrivacyCenterSettingsService } from './settings.service.js';

/** How long the person has to answer the agent's request, ms (PRODUCT §2.19: 14 days). */
export const CONFIRM_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** What an agent submits at the center (PRODUCT §2.19). */
export interface AgentSubmissionInput {
  request_type: RequestType;
  agent_email: string;
  agent_name: string;
  subject_email: string;
  proof_ref: string;
}

/** What an agent's submission came to: `submitted` (202), `agent_path_off` (404), `type_not_enabled` (422). */
export type AgentSubmitOutcome =
  { kind: 'submitted'; id: string } | { kind: 'agent_path_off' } | { kind: 'type_not_enabled'; offered: string[] };

/** What trying the agent's code came to: `verified` (the person is asked), or why not, as a person's code. */
export type AgentVerifyOutcome = Exclude<VerifyOutcome, { kind: 'verified' }> | { kind: 'verified' };

/** Why an agent submission is deleted unfiled: the person said "I did not", or did not answer in 14 days. */
export type NotConfirmedReason = 'declined' | 'no_answer';

/**
 * Deletes agent submission `row` unfiled, in `unit`: the agent is mailed that the person did not
 * confirm (no data of the person), and the audit names who ended it (`actor`: the person, or the
 * sweeper) and why, never an address.
 */
export function endUnconfirmed(
  unit: UnitOfWork,
  row: AgentSubmissionRow,
  actor: { id: string; name: string },
  reason: NotConfirmedReason,
  at: string,
) {
  enqueueDirectMail(unit, {
    workspaceId: row.workspace_id,
    kind: 'agent_notice',
    recipient: row.agent_email,
    payload: { request_type: row.request_type, event: 'not_confirmed' },
    at,
  });
  recordAudit(unit, {
    actor: actor.id,
    actorName: actor.name,
    action: 'agent_request.not_confirmed',
    targetType: 'agent_request',
    targetId: row.id,
    workspaceId: row.workspace_id,
    details: { request_type: row.request_type, reason },
    occurredAt: at,
  });
  return deleteAgentSubmission(unit.tx, row.id);
}

/**
 * Whether `token` opens `row`'s confirmation: verified less than {@link CONFIRM_TTL_MS} before
 * `now` (epoch ms), and the token's keyed hash matches.
 */
function opens(hashKey: string, row: AgentSubmissionRow | undefined, token: string, now: number): row is AgentSubmissionRow {
  if (row?.confirm_hash == null || row.verified_at === null || token.length === 0) return false;
  if (now >= Date.parse(row.verified_at) + CONFIRM_TTL_MS) return false;
  return sameHash(row.confirm_hash, secretHash(hashKey, `confirm:${row.id}`, token));
}

/**
 * The privacy center's agent path before a request exists (PRODUCT §2.19, 11 CCR §7063(a)): an
 * authorized agent's submission, the code that proves the agent's address (as a person's, §2.15),
 * and the person's confirmation link (its token stored only as a keyed hash; sealed in the outbox).
 * A submission is not a privacy request. Its addresses live only in its row and the outbox.
 */
export function createAgentSubmissionService(deps: {
  db: Kysely<DB>;
  transact: Transact;
  clock: Clock;
  /** Key of the code and token hashes (the service's pseudonym key). */
  hashKey: string;
  /** Seals a code or token for the outbox under the service's secrets key. */
  seal: (plaintext: string) => string;
  settings: PrivacyCenterSettingsService;
}) {
  const { db, transact, clock, hashKey, seal, settings } = deps;
  return {
    /**
     * Stores the agent's submission and enqueues its code mail to the agent (sealed), when the
     * workspace's center is on with `agent_requests` and offers the type. Nothing stored otherwise.
     */
    async submit(workspaceId: string, input: AgentSubmissionInput): Promise<AgentSubmitOutcome> {
      const center = await settings.get(workspaceId);
      if (!center?.enabled || !center.agent_requests) return { kind: 'agent_path_off' };
      if (!center.request_types.includes(input.request_type)) return { kind: 'type_not_enabled', offered: center.request_types };
      const now = clock();
      const id = newId('form', now.getTime());
      const code = newCode();
      const at = toTimestamp(now);
      const expiresAt = toTimestamp(new Date(now.getTime() + CODE_TTL_MS));
      const agentEmail = normalizeEmail(input.agent_email);
      await transact(async (unit) => {
        await insertAgentSubmission(unit.tx, {
          id,
          workspace_id: workspaceId,
          request_type: input.request_type,
          agent_email: agentEmail,
          agent_name: input.agent_name.trim(),
          subject_email: normalizeEmail(input.subject_email),
          proof_ref: input.proof_ref.trim(),
          code_hash: secretHash(hashKey, id, code),
          code_expires_at: expiresAt,
          attempts_left: CODE_ATTEMPTS,
          submitted_at: at,
          verified_at: null,
          confirm_hash: null,
        });
        enqueueDirectMail(unit, {
          workspaceId,
          kind: 'code',
          recipient: agentEmail,
          payload: {
            request_type: input.request_type,
            code_sealed: seal(code),
            code_expires_at: expiresAt,
            submission_id: id,
            for_agent: true,
          },
          at,
        });
      });
      return { kind: 'submitted', id };
    },

    /**
     * Tries the agent's `code` (under a row lock; as a person's code: a wrong one costs an
     * attempt). The right one marks it verified and enqueues, once, the mail asking the person
     * (its link's token sealed, only its keyed hash stored). Verified again: `verified`, nothing new.
     */
    async verify(workspaceId: string, id: string, code: string): Promise<AgentVerifyOutcome> {
      return runUnitOfWork(db, async (unit): Promise<AgentVerifyOutcome> => {
        const row = await lockAgentSubmission(unit.tx, workspaceId, id);
        if (!row) return { kind: 'not_found' };
        const now = clock();
        const decision = tryStoredCode(hashKey, id, row, code, now.getTime());
        if (decision.kind === 'wrong') {
          await updateAgentSubmission(unit.tx, id, { attempts_left: decision.attemptsLeft });
          return decision;
        }
        if (decision.kind !== 'verified' || row.verified_at !== null) return decision;
        const at = toTimestamp(now);
        const token = newStatusToken();
        await updateAgentSubmission(unit.tx, id, { verified_at: at, confirm_hash: secretHash(hashKey, `confirm:${id}`, token) });
        enqueueDirectMail(unit, {
          workspaceId,
          kind: 'agent_confirm',
          recipient: row.subject_email,
          payload: {
            request_type: row.request_type,
            agent_name: row.agent_name,
            confirm_sealed: seal(token),
            agent_submission_id: id,
          },
          at,
        });
        return { kind: 'verified' };
      });
    },

    /** The submission `id` of `workspaceId` that `token` opens (the confirmation page), or null. A read: nothing is decided. */
    async open(workspaceId: string, id: string, token: string): Promise<AgentSubmissionRow | null> {
      const row = await findAgentSubmission(db, workspaceId, id);
      return opens(hashKey, row, token, clock().getTime()) ? row : null;
    },

    /**
     * The person's "I did not": deletes the submission (both addresses with it), mails the agent
     * that it was not confirmed and audits it as the person, in one unit. @returns false when
     * `token` opens no submission (already answered, expired, or a wrong link).
     */
    async decline(workspaceId: string, id: string, token: string): Promise<boolean> {
      return runUnitOfWork(db, async (unit) => {
        const row = await lockAgentSubmission(unit.tx, workspaceId, id);
        if (!opens(hashKey, row, token, clock().getTime())) return false;
        const person = { id: `subject:${subjectPseudonym(hashKey, row.subject_email)}`, name: 'data subject' };
        await endUnconfirmed(unit, row, person, 'declined', toTimestamp(clock()));
        return true;
      });
    },

    /**
     * After the request was filed: deletes the submission (its addresses now live only where the
     * request's mails go) and audits the person's confirmation, in one unit.
     */
    async settleConfirmed(row: AgentSubmissionRow, requestId: string): Promise<void> {
      await runUnitOfWork(db, async (unit) => {
        await deleteAgentSubmission(unit.tx, row.id);
        recordAudit(unit, {
          actor: `subject:${subjectPseudonym(hashKey, row.subject_email)}`,
          actorName: 'data subject',
          requestId,
          action: 'agent_request.confirmed',
          targetType: 'privacy_request',
          targetId: requestId,
          workspaceId: row.workspace_id,
          details: { request_type: row.request_type, agent_request: row.id },
          occurredAt: toTimestamp(clock()),
        });
      });
    },
  };
}

export type AgentSubmissionService = ReturnType<typeof createAgentSubmissionService>;
