import { OPT_IN_SUBMISSION, type VerifyOutcome } from '../../modules/privacy-center/privacy-center.types.js';
import type { SubmissionService } from '../../modules/privacy-center/submission.service.js';
import type { FileRequest } from './file-privacy-request.js';
import type { PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import { subjectPrincipal } from './subject-principal.js';

/** The privacy center's filing scope: every category of the person's data. */
const CENTER_SCOPE = ['user'];

/**
 * What verifying a privacy-center submission came to: the request filed (its status, and why it
 * waits: `repeat_request` is told in its own words, PRODUCT §2.20), or why not.
 */
export type CenterVerifyOutcome =
  | Exclude<VerifyOutcome, { kind: 'verified' }>
  | { kind: 'filed'; requestId: string; status: string; statusReason: string | null };

/** What filing a verified submission needs. */
export interface CenterIntakeDeps {
  readonly submissions: Pick<SubmissionService, 'verify' | 'linkRequest'>;
  readonly privacyRequests: Pick<PrivacyRequestService, 'get'>;
  readonly fileRequest: FileRequest;
  /** The key of the subject pseudonyms (the person's principal id). */
  readonly pseudonymKey: string;
}

/**
 * Tries `code` on submission `id` of `workspaceId`; once it is verified, turns the submission
 * into a privacy request (PRODUCT §2.15), through the one filing path (`fileRequest`):
 * `subject_provider: "email"`, `received_at` = the submission's time, `intake_ref: "privacy-center"`, notified at the address with a status link.
 * Idempotent: the submission id is the Idempotency-Key and `privacy-center:<id>` the
 * `client_request_id`, so verifying twice (or again after a crash between the two steps) files one
 * request and answers the same.
 */
export async function verifyCenterSubmission(
  deps: CenterIntakeDeps,
  workspaceId: string,
  id: string,
  code: string,
): Promise<CenterVerifyOutcome> {
  const { submissions, privacyRequests, fileRequest, pseudonymKey } = deps;
  const outcome = await submissions.verify(workspaceId, id, code);
  if (outcome.kind !== 'verified') return outcome;
  const s = outcome.submission;
  // `verify` answers a request's verification only for a request's submission (an opt-in's is not_found).
  if (s.requestType === OPT_IN_SUBMISSION) return { kind: 'not_found' };
  const filing = await fileRequest(
    subjectPrincipal(pseudonymKey, workspaceId, s.email),
    s.id,
    {
      request_type: s.requestType,
      scope: CENTER_SCOPE,
      subject_id: s.email,
      subject_provider: 'email',
      workspace_id: workspaceId,
      client_request_id: `privacy-center:${s.id}`,
      intake_ref: 'privacy-center',
      received_at: s.submittedAt,
      notify_email: s.email,
    },
    { statusLink: true },
  );
  const requestId = filing.kind === 'filed' ? filing.request.id : filing.existingId;
  if (requestId === null) return { kind: 'not_found' };
  if (s.requestId === null) await submissions.linkRequest(s.id, requestId);
  const current = filing.kind === 'filed' && !filing.replayed ? filing.request : await privacyRequests.get(requestId);
  return { kind: 'filed', requestId, status: current?.status ?? 'queued', statusReason: current?.status_reason ?? null };
}
