import type { DataSystemKind } from '../../db/tables/data-system.table.js';
import {
  type ConnectionSettings,
  type DatasetSummary,
  type DatasetTooLarge,
  tooLargeSentence,
} from '../connectors/connectors.js';

/**
 * What a controller may declare about a system's processing (PRODUCT §2.17; GDPR Art. 15(1)(a)
 * purposes, (c) recipients, (d) retention, (g) source): plain-text lists, shown per system in the
 * access letter and package.
 */
export const PROCESSING_FIELDS = ['purposes', 'recipients', 'retention', 'source'] as const;
export type ProcessingField = (typeof PROCESSING_FIELDS)[number];

/** A system's declared processing: each list as declared, or null when the controller declared none. */
export type DeclaredProcessing = Record<ProcessingField, string[] | null>;

/** What `POST /api/v1/data-systems` takes (validated by the route's schema; kind rules by the service). */
export interface CreateDataSystemInput {
  workspace_id: string;
  key: string;
  name: string;
  /** Default: `webhook` with an `endpoint_id`, else `manual`. */
  kind?: DataSystemKind;
  /** Required for webhook and manual systems; database kinds default to the dataset's `user.*` categories. */
  categories?: string[];
  /**
   * Required for webhook and manual systems; database kinds default to the four request types.
   * Webhook and manual systems may also name the opt-out kinds (`OPT_OUT_REQUEST_TYPES`, PRODUCT §2.18).
   */
  request_types?: string[];
  endpoint_id?: string;
  due_days?: number;
  /** Database kinds: write-only. */
  connection?: ConnectionSettings;
  /** Database kinds: a Fides dataset (object, or a YAML/JSON string). */
  dataset?: unknown;
  /** Database kinds: which dataset of a Fides file holding several (its `fides_key`; PRODUCT §2.17). */
  dataset_key?: string;
  /** Declared processing (any kind); absent: not declared. */
  purposes?: string[];
  recipients?: string[];
  retention?: string[];
  source?: string[];
  /** The system is a third party the data was sold or shared to (11 CCR §7026(f)(2)); default false. */
  third_party?: boolean;
}

/** What `PATCH /api/v1/data-systems/{id}` may change; `null` clears `endpoint_id` or `due_days`. The kind never changes. */
export interface UpdateDataSystemInput {
  name?: string;
  categories?: string[];
  request_types?: string[];
  endpoint_id?: string | null;
  due_days?: number | null;
  connection?: ConnectionSettings;
  dataset?: unknown;
  /** With `dataset`: which dataset of a Fides file holding several (its `fides_key`). */
  dataset_key?: string;
  /** Declared processing: a new list, or `null` to withdraw the declaration. */
  purposes?: string[] | null;
  recipients?: string[] | null;
  retention?: string[] | null;
  source?: string[] | null;
  third_party?: boolean;
}

/** A data system as the API shows it (PRODUCT §2.9, §2.14): never its connection. */
export interface DataSystemResource {
  id: string;
  workspace_id: string;
  key: string;
  name: string;
  kind: DataSystemKind;
  categories: string[];
  request_types: string[];
  endpoint_id: string | null;
  due_days: number | null;
  /** Database kinds: the dataset's key, collections, identities and `user.*` categories; else null. */
  dataset: DatasetSummary | null;
  /** Declared processing (PRODUCT §2.17): each list, or null when not declared. */
  purposes: string[] | null;
  recipients: string[] | null;
  retention: string[] | null;
  source: string[] | null;
  /** A third party the personal information was sold or shared to (11 CCR §7026(f)(2); PRODUCT §2.18). */
  third_party: boolean;
  created_at: string;
  updated_at: string;
}

/** One refusal of a system's fields, as a 422 item (`loc` from `body`). */
export interface SystemProblem {
  loc: (string | number)[];
  msg: string;
  type: 'missing' | 'value_error';
}

/** The workspace already has (or had: deleted keys stay reserved) a system with this key (409). */
export class SystemKeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`data system key taken: ${key}`);
  }
}

/** Another live system of the workspace has a dataset with this `fides_key` (409). */
export class FidesKeyTakenError extends Error {
  constructor(readonly fidesKey: string) {
    super(`dataset fides_key taken: ${fidesKey}`);
  }
}

/** The workspace has `MAX_DATA_SYSTEMS_PER_WORKSPACE` live systems already (409). */
export class DataSystemLimitError extends Error {
  constructor(readonly limit: number) {
    super(`data system limit reached: ${limit}`);
  }
}

/** The system's fields are refused for its kind (422, one item per problem; never the connection URL). */
export class DataSystemRefusedError extends Error {
  constructor(
    readonly problems: readonly SystemProblem[],
    readonly shown: Record<string, unknown>,
  ) {
    super('data system refused');
  }
}

/** The dataset passes a size bound once its YAML aliases are expanded (413 naming the limit, PRODUCT §2.17). */
export class DatasetTooLargeError extends Error {
  constructor(readonly bound: DatasetTooLarge) {
    super(tooLargeSentence(bound));
  }
}

/** `endpoint_id` names no webhook endpoint of the system's workspace (422 on `endpoint_id`). */
export class EndpointNotInWorkspaceError extends Error {
  constructor(readonly endpointId: string) {
    super('endpoint_id is not a webhook endpoint of this workspace');
  }
}

/** Preview and test need a database system (409 naming the kind). */
export class NotADatabaseSystemError extends Error {
  constructor(readonly kind: DataSystemKind) {
    super(`not a database system: ${kind}`);
  }
}

/** No such live system, or not in the caller's workspaces (404). */
export class DataSystemNotFoundError extends Error {}
