/** What an opt-out is about (PRODUCT §2.18): CCPA §1798.120, §1798.121; GDPR Art. 21(2)–(3). */
export const OPT_OUT_KINDS = ['sale_sharing', 'sensitive_use', 'direct_marketing'] as const;
export type OptOutKind = (typeof OPT_OUT_KINDS)[number];

/** The person's choice: out, or back in. */
export const OPT_OUT_CHOICES = ['opt_out', 'opt_in'] as const;
export type OptOutChoice = (typeof OPT_OUT_CHOICES)[number];

/** Where the choice came from: the privacy center's form, a Global Privacy Control signal, an authorized agent, an operator through the API. */
export const OPT_OUT_SOURCES = ['form', 'gpc', 'agent', 'api'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** An opt-out's statuses (as a data task's: §2.9). */
export const OPT_OUT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'canceled'] as const;
export type OptOutStatus = (typeof OPT_OUT_STATUSES)[number];

/** The statuses that are not final: `status=open`. */
export const OPEN_OPT_OUT_STATUSES: readonly OptOutStatus[] = ['queued', 'processing'];

/** The opt-out resource (PRODUCT §2.18). */
export interface OptOutResource {
  id: string;
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
  kind: OptOutKind;
  choice: OptOutChoice;
  source: OptOutSource;
  client_request_id: string;
  status: OptOutStatus;
  received_at: string;
  created_at: string;
  due_at: string;
  completed_at: string | null;
  /** The authorized agent that filed it (PRODUCT §2.19), or null. */
  agent: OptOutAgent | null;
}

/** The authorized agent that filed an opt-out (PRODUCT §2.19), as the resource names it. */
export interface OptOutAgent {
  readonly id: string;
  readonly name: string;
  readonly drp_request_id: string;
  readonly proof_ref: string | null;
}

/** What a filing answers: 202 `{id, status, due_at}` (PRODUCT §2.18). */
export interface OptOutAccepted {
  id: string;
  status: OptOutStatus;
  due_at: string;
}

/** A filing's outcome: accepted, or the `client_request_id` is another opt-out's (null: not found again). */
export type OptOutFiling =
  { kind: 'filed'; accepted: OptOutAccepted } | { kind: 'client_request_id_taken'; existingId: string | null };

/** One kind's standing choice of a subject; `not_set` when nothing was ever accepted. */
export interface PreferenceView {
  choice: OptOutChoice | 'not_set';
  source: OptOutSource | null;
  updated_at: string | null;
}

/** A subject's preferences, one per kind. */
export type Preferences = Record<OptOutKind, PreferenceView>;

/** `privacy_preference.changed`'s `data`: the new standing choice and the opt-out that set it. */
export interface PreferenceChange {
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
  kind: OptOutKind;
  choice: OptOutChoice;
  source: OptOutSource;
  opt_out_id: string;
  updated_at: string;
}
