import type { ControllerProfileFields } from '../../modules/controllers/controller.types.js';
import type { AutomatedDecisionStatement, RightStatement } from '../../modules/subject-data/package.types.js';
import type { ProcessingStatement } from '../../modules/subject-data/package.types.js';
import type { Regulation } from '../../modules/policies/policy.types.js';
import type { NotSearchedPart } from './not-searched-part.js';

/** One data system's part of the answer (PRODUCT §2.9): rendered when present, nothing without. */
export interface SystemPart {
  key: string;
  name: string;
  /** The system's data, any JSON. */
  data: unknown;
  /**
   * What the system said besides its data (the package's `system_answers.<key>`, PRODUCT §2.13):
   * record counts by category, and whether its answer reaches the person separately. Absent in a
   * package built before answers were recorded: the letter then claims nothing about the system.
   */
  answer?: SystemAnswerPart;
  /**
   * What the controller declared about the system's processing (the package's
   * `system_processing.<key>`, PRODUCT §2.17): each list, or null when not declared. Absent in a
   * package built before declarations were recorded: the letter then says nothing of it.
   */
  processing?: SystemProcessing;
}

/** What a system said besides its data (the package's `system_answers.<key>`). */
export interface SystemAnswerPart {
  records?: Record<string, number>;
  delivered_separately?: boolean;
  /** A database system's answer (PRODUCT §2.17): per collection, rows found and the categories of each field. */
  collections?: Record<string, { rows: number; fields: Record<string, string[]> }>;
}

/** A system's declared purposes, recipients, retention and source (GDPR Art. 15(1)(a), (c), (d), (g)); null: not declared. */
export type SystemProcessing = Record<'purposes' | 'recipients' | 'retention' | 'source', string[] | null>;

/** One category of the answer: its key, its data (any JSON) and, for access, its processing. */
export interface CategoryPart {
  key: string;
  data: unknown;
  processing: ProcessingStatement | null;
}

/** Everything a readable letter shows (PRODUCT §2.11), read from a package and its request. */
export interface LetterInput {
  request: {
    id: string;
    /** `access` or `export`. */
    type: string;
    workspace_id: string;
    subject: { provider: string; id: string };
    /** RFC 3339 UTC: when the request was received, and when it was answered. */
    received_at: string;
    completed_at: string | null;
    /** The scope keys as filed. */
    scope: string[];
  };
  /** When the package was generated (RFC 3339 UTC). */
  generated_at: string;
  /** The package's `format` (`privacy-access/1`, `privacy-export/1`). */
  format: string;
  controller: ControllerProfileFields | null;
  /** Which rights the package answers (the package's `controller_note`). */
  note: string;
  categories: CategoryPart[];
  /** Other systems' parts; absent or empty: the letter has no such section. */
  systems?: SystemPart[];
  /** Systems that could not be searched with what the person gave (PRODUCT §2.17); absent or empty: none. */
  not_searched?: NotSearchedPart[];
  /** The regulations the request is under (its `regulation` label): which rights and articles the letter names. */
  regulations: Regulation[];
  rights: RightStatement[];
  automated_decision_making: AutomatedDecisionStatement;
  /**
   * The officer's confirmation that no personal data of the person is processed (PRODUCT §2.13,
   * GDPR Art. 15(1)), when the request was confirmed after nothing matched its identity.
   */
  no_data_confirmation?: string;
}
