/**
 * The connectors' public API (PRODUCT §2.14; the contract is in this folder's README). Callers
 * import from here only.
 */
import { checkDataset, summarizeDataset } from './dataset-check.fns.js';
import { type DatasetTooLarge, type LoadedDataset, loadDatasetInput, tooLargeSentence } from './dataset-load.fns.js';
import { loadDatasetInputYielding } from './dataset-load.js';
import { parseDataset } from './dataset-parse.fns.js';
import type { Dataset, DatasetProblem } from './dataset.types.js';

export { addressAllowed, hostAllowed, parseAllowedHosts, type AllowedHost } from '../../lib/allowed-hosts.js';
export { checkConnection, checkConnectionUrl, type ConnectionSettings, type ConnectorKind } from './connection-url.fns.js';
export { ConnectorError, type ConnectorFailure } from './connector.errors.js';
export {
  previewConnectorTask,
  runConnectorTask,
  type CollectionCounts,
  type ConnectorTaskInput,
  type ConnectorTaskResult,
} from './connector-run.js';
export { connectorAction, type ConnectorAction, UnsupportedRequestTypeError } from './connector-action.fns.js';
export { addErasureCounts, type ErasureCounts, NO_ERASURE, readErasureCounts } from './erasure-counts.fns.js';
export type { Dataset, DatasetProblem, DatasetSummary } from './dataset.types.js';
export { DATASET_BOUNDS, type DatasetTooLarge, tooLargeSentence } from './dataset-load.fns.js';
export { summarizeDataset } from './dataset-check.fns.js';
export { generateDataset } from './generate.js';
export type { CannotMask, CollectionWarnings, Unindexed } from './masking-fit.fns.js';
export { testConnection, type ProbeResult } from './probe.js';
export type { Identities, PlannedStatement } from './read-pass.js';
export type { ConnectorLimits, Row } from './sql-session.js';
export { isServiceIdentity } from './traversal.fns.js';

/** What {@link readDataset} answers: the dataset and what to store, or the problems (and the bound passed, for a 413). */
export type DatasetRead =
  { dataset: Dataset; source: Record<string, unknown> } | { problems: DatasetProblem[]; tooLarge?: DatasetTooLarge };

/** The shape and registration checks of a bounded input, `datasetKey` choosing one dataset of a Fides file. */
function readLoaded(loaded: LoadedDataset, datasetKey?: string): DatasetRead {
  if ('tooLarge' in loaded) return { problems: [{ loc: [], msg: tooLargeSentence(loaded.tooLarge) }], tooLarge: loaded.tooLarge };
  if ('problems' in loaded) return loaded;
  const parsed = parseDataset(loaded.value, datasetKey);
  if (!parsed.dataset || !parsed.source) return { problems: parsed.problems };
  const problems = checkDataset(parsed.dataset, parsed.prefix);
  if (problems.length > 0) return { problems };
  return { dataset: parsed.dataset, source: parsed.source };
}

/**
 * Reads and checks a dataset as given to the API (a JSON object, or a YAML/JSON string; bare or
 * a Fides file, `datasetKey` choosing one of its datasets): its bounds (PRODUCT §2.17, counted
 * without expanding YAML aliases), the shape, then every registration check. Problems' `loc` is
 * relative to the given value (prefix it with `['body', 'dataset']`), or to the body when
 * `root: 'body'` (a `dataset_key` problem).
 * @returns the dataset and the object to store (the dataset itself, unwrapped, aliases expanded),
 * or the problems (422); past a size bound, one problem saying so and `tooLarge` (413).
 */
export function readDataset(input: unknown, datasetKey?: string): DatasetRead {
  return readLoaded(loadDatasetInput(input), datasetKey);
}

/**
 * {@link readDataset} for a request handler: a YAML text is lexed and parsed in slices with turns
 * of the event loop between them (dataset-load.ts), the same answer otherwise.
 */
export async function readDatasetYielding(input: unknown, datasetKey?: string): Promise<DatasetRead> {
  return readLoaded(await loadDatasetInputYielding(input), datasetKey);
}

/**
 * A stored dataset (the `source` {@link readDataset} returned, checked when it was stored): its
 * shape only, without the checks (listing many systems stays cheap). @returns null when it no
 * longer reads (never expected).
 */
export function readStoredDataset(source: unknown): Dataset | null {
  return parseDataset(source).dataset;
}

/** The summary the API shows, from a stored dataset. */
export const datasetSummary = summarizeDataset;
