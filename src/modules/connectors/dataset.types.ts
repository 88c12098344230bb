/**
 * A Fides dataset as the connectors use it (PRODUCT §2.14): the supported subset of Ethyca Fides'
 * `Dataset` (fideslang `models.Dataset`), normalized by `parseDataset`. Names are as written in
 * the dataset; every identifier reaches SQL only through the dialect's quoting.
 */
export interface Dataset {
  /** The dataset's `fides_key` (unique per workspace). */
  readonly fides_key: string;
  /** `fides_meta.namespace.schema`: the schema (PostgreSQL) or database (MySQL) of every collection; null: the connection's default. */
  readonly schema: string | null;
  /** The collections the service reads and writes (never those marked `fides_meta.skip_processing`). */
  readonly collections: readonly Collection[];
  /** Names of the collections marked `fides_meta.skip_processing`: never read or written (Fides drops them from its graph). */
  readonly skipped: readonly string[];
}

/** A collection: a table. */
export interface Collection {
  readonly name: string;
  /** Its index in the dataset's `collections` list as given (skipped collections count): where a 422 points. */
  readonly position: number;
  readonly fields: readonly Field[];
  /** `fides_meta.after`: collection names (of this dataset) whose access runs first. */
  readonly after: readonly string[];
  /** `fides_meta.erase_after`: collection names whose erasure runs first. */
  readonly erase_after: readonly string[];
  /** `fides_meta.masking_strategy_override.strategy === 'delete'`: erasure deletes the rows. */
  readonly delete_rows: boolean;
}

/**
 * A masking strategy (Fides `MaskingConfiguration`): what an erasure writes into a field. Fides'
 * `null_rewrite` reads as `null`; `format_preservation.suffix` as `suffix`.
 */
export type MaskingStrategy =
  | { readonly strategy: 'null' }
  | { readonly strategy: 'string_rewrite'; readonly rewrite_value: string; readonly suffix: string | null }
  | { readonly strategy: 'random_string_rewrite'; readonly length: number; readonly suffix: string | null }
  | { readonly strategy: 'hmac' };

/** The direction of a reference (Fides): `from`: this field's values come from the referenced field; `to`: the other way; null: both. */
export type ReferenceDirection = 'from' | 'to' | null;

/** `fides_meta.references[i]`: this field equals `collection.field` of the same dataset. */
export interface Reference {
  readonly collection: string;
  readonly field: string;
  readonly direction: ReferenceDirection;
}

/** A column. */
export interface Field {
  readonly name: string;
  readonly data_categories: readonly string[];
  /** `fides_meta.identity`: the identity it holds (`email`, `username`, `<provider>_id`, …); null: none. */
  readonly identity: string | null;
  readonly references: readonly Reference[];
  readonly primary_key: boolean;
  /** `fides_meta.data_type` (`string`, `integer`, …), kept for masking; null: unknown. */
  readonly data_type: string | null;
  /** `fides_meta.length`: the longest value a masked string may have. */
  readonly length: number | null;
  readonly read_only: boolean;
  /** `fides_meta.masking_strategy_override`; null: the default (`null`). */
  readonly masking: MaskingStrategy | null;
}

/** A problem with a dataset: where in the dataset (`loc` relative to it) and what. */
export interface DatasetProblem {
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  /** `body`: `loc` is relative to the request body (a problem of `dataset_key`), not to the dataset. */
  readonly root?: 'body';
}

/** What the service shows of a dataset (never the connection). */
export interface DatasetSummary {
  fides_key: string;
  collections: string[];
  identities: string[];
  categories: string[];
}
