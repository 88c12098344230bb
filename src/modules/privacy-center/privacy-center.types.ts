import type { RequestType } from '../request-model/request-model.js';

/** A workspace's privacy center as the API shows it (PRODUCT §2.15). */
export interface PrivacyCenterSettings {
  workspace_id: string;
  enabled: boolean;
  request_types: RequestType[];
  title: string | null;
  /** Whether authorized agents outside DRP may file through the center (PRODUCT §2.19; default false). */
  agent_requests: boolean;
  updated_at: string;
}

/** `PUT …/privacy-center` body. */
export interface PrivacyCenterSettingsInput {
  enabled: boolean;
  request_types: RequestType[];
  title?: string;
  /** The center's agent path (PRODUCT §2.19); absent: false. */
  agent_requests?: boolean;
}

/** What an opt-in's submission has as its `request_type` (PRODUCT §2.18: the center's opt-in waits for its code). */
export const OPT_IN_SUBMISSION = 'opt_in';

/** What a submission is for: a privacy request, or an opt-in back to what the person had opted out of. */
export type SubmissionPurpose = 'request' | 'opt_in';

/** A submission as the service reads it. */
export interface Submission {
  id: string;
  workspaceId: string;
  /** A request's type; for an opt-in's submission {@link OPT_IN_SUBMISSION} (see `optInKinds`). */
  requestType: RequestType | typeof OPT_IN_SUBMISSION;
  /** An opt-in's kinds (opt-out kinds, as submitted); null for a request's submission. */
  optInKinds: string[] | null;
  email: string;
  submittedAt: string;
  verifiedAt: string | null;
  requestId: string | null;
}

/**
 * What a verification came to: `verified` (file the request: the submission), `wrong` (403, the
 * attempts left), `void` (429), `expired` (410), `not_found` (404: no such submission of the
 * workspace, or gone after 24 h).
 */
export type VerifyOutcome =
  | { kind: 'verified'; submission: Submission }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'void' }
  | { kind: 'expired' }
  | { kind: 'not_found' };
