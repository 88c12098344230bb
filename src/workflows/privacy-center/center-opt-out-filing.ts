import { createHmac } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import type { OptOutChoice, OptOutKind, OptOutStatus } from '../../modules/opt-outs/opt-out.types.js';
import { normalizeEmail } from '../../modules/privacy-center/privacy-center.fns.js';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import type { SubmissionService } from '../../modules/privacy-center/submission.service.js';
import type { OptOutUseCases } from '../opt-outs/opt-out-use-cases.js';
import { subjectPrincipal } from '../filing/subject-principal.js';

/** What the privacy center's opt-out use cases may use (wired once in services.ts `centerSubmit`). */
export interface CenterOptOutDeps {
  /** The one opt-out filing path (workflows/opt-outs) and its read, for an opt-out filed before. */
  readonly optOuts: Pick<OptOutUseCases, 'file' | 'read'>;
  readonly settings: Pick<PrivacyCenterSettingsService, 'get'>;
  readonly submissions: Pick<SubmissionService, 'submit' | 'submitOptIn' | 'verify'>;
  readonly clock: Clock;
  /** The key of the subject pseudonyms (the person's principal id) and of the derived keys. */
  readonly pseudonymKey: string;
}

/** An opt-out the center recorded, as the person is told of it. */
export interface CenterOptOutRecord {
  id: string;
  kind: OptOutKind;
  /** `opt_out`, or `opt_in` after the person's code (`verifyCenterOptIn`). */
  choice: OptOutChoice;
  source: 'form' | 'gpc';
  status: OptOutStatus;
  /** When the opt-out is to be passed on (15 business days; a month for direct marketing). */
  due_at: string;
}

/** How often a key another submission holds right now is looked at again, and how long apart (ms). */
const IN_FLIGHT_TRIES = 20;
const IN_FLIGHT_WAIT_MS = 50;

/**
 * The Idempotency-Key (and `client_request_id`) of a center opt-out: an HMAC under the pseudonym
 * key of the workspace, the address as the center compares it, the kind, the source and `bucket`,
 * so equal submissions file once and the address is nowhere in clear.
 */
export function centerOptOutKey(
  pseudonymKey: string,
  workspaceId: string,
  email: string,
  kind: OptOutKind,
  source: 'form' | 'gpc',
  bucket: string,
): string {
  const what = JSON.stringify(['center-opt-out', workspaceId, normalizeEmail(email), kind, source, bucket]);
  return `pc-oo-${createHmac('sha256', pseudonymKey).update(what).digest('base64url')}`;
}

/**
 * Files one opt-out of `kind` for the address (`subject_provider: "email"`, `subject_id` the
 * address trimmed and lower-cased, as a center request's) through the one filing path, as the
 * person (`subject:<pseudonym>`, "data subject"), under the key {@link centerOptOutKey} derives
 * from `bucket`. A repeat within the key's 24 h is the stored answer; later, the
 * `client_request_id` (the same derived value) is the opt-out filed first, which is read and told
 * again: nothing new is stored either way. A key another submission holds right now is waited for.
 * `choice` `opt_in` only once the person confirmed it with the mailed code (verify-center-opt-in.ts).
 */
export async function fileCenterOptOut(
  deps: Pick<CenterOptOutDeps, 'optOuts' | 'pseudonymKey'>,
  workspaceId: string,
  email: string,
  kind: OptOutKind,
  source: 'form' | 'gpc',
  bucket: string,
  choice: OptOutChoice = 'opt_out',
): Promise<CenterOptOutRecord> {
  const address = normalizeEmail(email);
  const key = centerOptOutKey(deps.pseudonymKey, workspaceId, address, kind, source, bucket);
  const principal = subjectPrincipal(deps.pseudonymKey, workspaceId, address);
  const input = {
    workspace_id: workspaceId,
    subject_provider: 'email',
    subject_id: address,
    kind,
    choice,
    source,
    client_request_id: key,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome = await deps.optOuts.file(principal, key, input);
      if (outcome.kind === 'filed') return { ...outcome.accepted, kind, choice, source };
      const earlier = outcome.existingId === null ? null : await deps.optOuts.read(outcome.existingId);
      if (!earlier) throw new Error('a center opt-out names an opt-out that cannot be read');
      return { id: earlier.id, kind, choice, source, status: earlier.status, due_at: earlier.due_at };
    } catch (error) {
      if (!(error instanceof IdempotencyConflict) || error.reason !== 'in_flight' || attempt >= IN_FLIGHT_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_WAIT_MS));
    }
  }
}

/**
 * The `sale_sharing` opt-out a submission made with `Sec-GPC: 1` records (PRODUCT §2.18, 11 CCR
 * §7025): `source: "gpc"`, once per address and workspace (the key has no time in it, so a repeat,
 * even years later, changes nothing).
 */
export function fileGpcOptOut(
  deps: Pick<CenterOptOutDeps, 'optOuts' | 'pseudonymKey'>,
  workspaceId: string,
  email: string,
): Promise<CenterOptOutRecord> {
  return fileCenterOptOut(deps, workspaceId, email, 'sale_sharing', 'gpc', 'once');
}
