import type { Regulation } from '../request-model/request-model.js';

/** Regulations a workspace's policy may name; the service computes their deadlines (PRODUCT §2.3). */
export type { Regulation };

/** How a change event may name its author: real ids, a keyed pseudonym, or not at all. */
export type AuthorIdentity = 'full' | 'pseudonymous' | 'none';

/** A complete policy: every field has a value (PRODUCT.md §2.4). */
export interface Policy {
  processing_allowed: boolean;
  /** Days, 1–3650. */
  retention_days: number;
  author_identity: AuthorIdentity;
  /** Glob strings, as written by the layers (deduplicated, in layer order). */
  excluded_paths: string[];
  regulations: Regulation[];
  require_approval: boolean;
  auto_erase_on_deprovision: boolean;
  /**
   * A request for an identity nothing here or in any data system matched waits for an operator's
   * review (`action_required`, `identity_unmatched`) instead of completing with "no data"
   * (PRODUCT §2.13); false lets it complete without review.
   */
  confirm_no_data: boolean;
  /**
   * Days that are not business days (`YYYY-MM-DD`, UTC), besides Saturdays and Sundays: an
   * opt-out's 15 business days skip them (PRODUCT §2.18). Merged as a union.
   */
  holidays: string[];
  /**
   * Days, 0–365: a request of the same type for the same matched subject while another is open,
   * or was completed within this many days, waits for an operator as `repeat_request` (PRODUCT
   * §2.20). 0 turns the check off entirely. Merged as the larger.
   */
  repeat_window_days: number;
  /**
   * A finished access or export request waits for an operator's review of its package
   * (`action_required`, `awaiting_review`) before the person gets it (PRODUCT §2.20, GDPR
   * Art. 15(4)). Merged as OR.
   */
  review_packages: boolean;
}

/** One layer's settings: the fields it sets; an absent field inherits. */
export type PolicyLayerSettings = Partial<Policy>;

/** The layers, from least to most specific. */
export type LayerName = 'default' | 'workspace' | 'repository';

/** The layer that decided each field. */
export type PolicySources = Record<keyof Policy, LayerName>;
