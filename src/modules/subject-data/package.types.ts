import type { ControllerProfileFields } from '../controllers/controller.types.js';
import type { DataCategory } from './scope.fns.js';

/** `format` of an export package (GDPR Art. 20). */
export const EXPORT_FORMAT = 'privacy-export/1';
/** `format` of an access package (GDPR Art. 15): an export package plus `processing`. */
export const ACCESS_FORMAT = 'privacy-access/1';

/** `user.account`: who the subject is to the service (ids, username, linked accounts, requests). */
export interface AccountData {
  /** The identity-provider user the profile was folded from; null when the service holds no profile. */
  identity: { provider: string; id: string } | null;
  /** Lifecycle state at the identity provider: `active`, `deactivated`, `deleted`; null without a profile. */
  state: string | null;
  username: string | null;
  /** Other usernames recorded in the stored identity events (distinct, oldest first). */
  earlier_usernames: string[];
  /** Code-host accounts linked by the identity provider; `login` as it reported it. */
  linked_accounts: { provider: string; account_id: string; login: string | null }[];
  /** The identity events the profile is folded from (their field values are in the categories). */
  identity_events: { event_id: string; type: string; occurred_at: string; received_at: string }[];
  /** The subject's other privacy requests (this one excluded). */
  privacy_requests: { id: string; request_type: string; status: string; created_at: string; completed_at: string | null }[];
}

/** `user.contact.email`: the current address and others recorded in stored identity events. */
export interface EmailData {
  email: string | null;
  earlier_values: string[];
}

/** `user.name`: the current name and others recorded in stored identity events. */
export interface NameData {
  name: string | null;
  earlier_values: string[];
}

/** One recorded pull/merge-request event the subject authored. */
export interface ChangeEventData {
  id: string;
  /** `github` or `gitlab`. */
  provider: string;
  /** `owner/name` or `group/sub/project`, lower-cased. */
  repository: string;
  number: number;
  action: string;
  title: string | null;
  head_sha: string | null;
  /** RFC 3339 UTC. */
  received_at: string;
  /** The author's account id and login, when the policy let them be stored (`full`); else null. */
  author_account_id: string | null;
  author_login: string | null;
}

/** `user.content`: the pull/merge-request events authored by any account of the linked set. */
export interface ContentData {
  change_events: ChangeEventData[];
}

/** The data of each category, keyed by category; only categories in the request's scope appear. */
export interface PackageData {
  'user.account'?: AccountData;
  'user.contact.email'?: EmailData;
  'user.name'?: NameData;
  'user.content'?: ContentData;
}

/**
 * An export package (GDPR Art. 20: "structured, commonly used and machine-readable"): all data
 * in scope about the subject and its linked identities. A subject the service has never seen
 * gets every category in scope, empty.
 */
export interface ExportPackage extends PackageStatements {
  format: typeof EXPORT_FORMAT | typeof ACCESS_FORMAT;
  request_id: string;
  workspace_id: string;
  /** The subject as the request named it. */
  subject: { provider: string; id: string };
  /** RFC 3339 UTC. */
  generated_at: string;
  data: PackageData;
  /** Which rights the package answers (GDPR Art. 20, or Art. 15; CCPA §1798.110/.130 when in force). */
  controller_note: string;
  /**
   * Per data system of the workspace, its part of the answer (PRODUCT §2.9, added by data tasks);
   * absent while the workspace has none.
   */
  systems?: Record<string, unknown>;
}

/** The GDPR Art. 15(1) information about one category's processing. */
export interface ProcessingStatement {
  /** Art. 15(1)(a). */
  purposes: string[];
  /** Art. 15(1)(c): who receives the data. */
  recipients: string[];
  /** Art. 15(1)(d): how long it is kept, or the criteria. */
  retention: string;
  /** Art. 15(1)(g): where it came from. */
  source: string[];
}

/** An access package (GDPR Art. 15): the export package plus, per category in scope, its processing. */
export interface AccessPackage extends ExportPackage {
  format: typeof ACCESS_FORMAT;
  processing: Partial<Record<DataCategory, ProcessingStatement>>;
}

/**
 * One of the person's rights, as a package states it (GDPR Art. 15(1)(e)–(f); CCPA
 * §§1798.100–1798.125): see modules/subject-data/rights.fns.ts.
 */
export interface RightStatement {
  /** A key: GDPR `access` … `complaint`, CCPA `know` … `ccpa_complaint`. */
  right: string;
  /** The article that grants it, e.g. `GDPR Art. 16`. */
  article: string;
  /** What the right is and how to use it, in plain words. */
  statement: string;
  /** `gdpr` or `ccpa`; absent in packages built before issue 22. */
  regulation?: string;
}

/** Art. 15(1)(h): whether automated decision-making, including profiling, is used. */
export interface AutomatedDecisionStatement {
  /** Always false: the service takes no decision about the subject by automated means. */
  applies: false;
  statement: string;
}

/**
 * What every access and export package states besides the data: who the controller is (PRODUCT
 * §2.10; null when the workspace set no profile), the subject's further rights and the absence
 * of automated decision-making (GDPR Art. 13(1)(a)–(b), 15(1)(e)–(h)).
 */
export interface PackageStatements {
  controller: ControllerProfileFields | null;
  rights: RightStatement[];
  automated_decision_making: AutomatedDecisionStatement;
}
