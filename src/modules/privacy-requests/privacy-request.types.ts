import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { ScopeKey } from '../data-categories/data-categories.fns.js';
import type { RequestType } from '../request-model/request-model.js';

/** A validated create body. */
export interface CreatePrivacyRequestInput {
  request_type: RequestType;
  scope: ScopeKey[];
  subject_id: string;
  subject_provider: string;
  workspace_id: string;
  client_request_id: string;
  intake_ref: string;
  /** When the controller received it (RFC 3339, any offset); default: now (PRODUCT §2.13). */
  received_at?: string;
  /**
   * Where the person is told of the request's progress (PRODUCT §2.15): received, extended,
   * completed, rejected. Kept apart from the request (request_notify_addresses), never in its resource.
   */
  notify_email?: string;
}

/** The authorized agent that filed a request (PRODUCT §2.19: the resource's `agent`). */
export interface RequestAgent {
  /** The agent's DRP id (`agent-id`); through the privacy center's agent path, the keyed pseudonym of its address. */
  readonly id: string;
  readonly name: string;
  /** The DRP request's `request_id`; null when filed through the privacy center's agent path. */
  readonly drp_request_id: string | null;
  /** Where the person's signed permission is (`power_of_attorney`), or null. */
  readonly proof_ref: string | null;
}

/** How a filing's person is told, and who filed it (not part of the filing's fingerprint). */
export interface FilingOptions {
  /** The request has a status page (filed through the privacy center): its mails carry a link. */
  statusLink?: boolean;
  /** Filed by an authorized agent (PRODUCT §2.19): the request's `agent`. */
  agent?: RequestAgent;
  /**
   * The agent's address, when it filed through the privacy center's agent path (PRODUCT §2.19):
   * the request's received, extended, completed and rejected mails go there too, without a link
   * or any data. Kept with the notify address, never in the request.
   */
  notifyAgent?: string;
  /** A regulation added to the workspace's (DRP `regime: ccpa`, PRODUCT §2.19): the earlier due date binds. */
  addRegulation?: 'ccpa';
  /**
   * Writes that exist only if the request is stored, deferred on `stored` (a unit whose deferred
   * writes are dropped with the row): a DRP exercise's record and digest, so they share the
   * filing's commit (modules/drp/drp-record-filing.ts).
   */
  alongside?: (stored: UnitOfWork, request: PrivacyRequestResource) => void;
  /**
   * The caller has just read that nothing was filed under this Idempotency-Key (a DRP exercise's
   * single-use read finds every key its filings use): the key's read before the unit is skipped,
   * saving one read per filing, which on SQLite waits for the write batch in hand; the key is still
   * claimed at the commit, which answers a filing in flight.
   */
  keyUnused?: boolean;
}

/** The request resource as the API returns it. */
export interface PrivacyRequestResource {
  id: string;
  status: string;
  request_type: string;
  scope: string[];
  subject_id: string;
  subject_provider: string;
  workspace_id: string;
  client_request_id: string;
  intake_ref: string;
  regulation: string;
  received_at: string;
  created_at: string;
  due_at: string;
  extended_due_at: string | null;
  completed_at: string | null;
  status_reason: string | null;
  /**
   * The request this one repeats (PRODUCT §2.20): set when it was filed as a `repeat_request`,
   * and kept after an operator proceeds, rejects or cancels it; null for every other request.
   */
  related_request_id: string | null;
  /** The operator it is assigned to (PRODUCT §2.16), or null. */
  assignee: string | null;
  /** The authorized agent that filed it (PRODUCT §2.19), or null. */
  agent: RequestAgent | null;
  links: { self: string };
}

/**
 * What filing a request came to: `filed` (the new request), or `client_request_id_taken` (a
 * typed conflict: another request of the workspace has that `client_request_id`; its id, or null
 * when it is gone). `replayed`: the outcome is the one stored for the Idempotency-Key, not new.
 */
export type FilingOutcome = Filing & { replayed: boolean };

/** A {@link FilingOutcome} as it is stored with its Idempotency-Key. */
export type Filing =
  { kind: 'filed'; request: PrivacyRequestResource } | { kind: 'client_request_id_taken'; existingId: string | null };
